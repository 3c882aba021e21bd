# Sourced by the run scripts: a stable signing secret and rate-limit hash key per checkout, made once,
# unless given. Production refuses to start without either (the hash key is a key of its own).
mkdir -p .run
for name in auth-secret rate-limit-hash-key; do
  [ -s ".run/$name" ] || node -e "console.log(require('crypto').randomBytes(32).toString('hex'))" > ".run/$name"
done
export AUTH_SECRET="${AUTH_SECRET:-$(cat .run/auth-secret)}"
export RATE_LIMIT_HASH_KEY="${RATE_LIMIT_HASH_KEY:-$(cat .run/rate-limit-hash-key)}"
