# Sourced by the run scripts: a stable signing secret per checkout, made once, unless one is given.
mkdir -p .run
[ -s .run/auth-secret ] || node -e "console.log(require('crypto').randomBytes(32).toString('hex'))" > .run/auth-secret
export AUTH_SECRET="${AUTH_SECRET:-$(cat .run/auth-secret)}"
