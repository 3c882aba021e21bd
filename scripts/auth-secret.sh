# Sourced by the run scripts: a stable signing secret and rate-limit hash key per checkout, made once,
# unless given. Production refuses to start without either (the hash key is a key of its own).
# Readable by the checkout's owner only: the directory 0700, each file 0600, also when made before.
mkdir -p .run
chmod 700 .run
for name in auth-secret rate-limit-hash-key; do
  [ -s ".run/$name" ] || (umask 077 && node -e "console.log(require('crypto').randomBytes(32).toString('hex'))" > ".run/$name")
  chmod 600 ".run/$name"
done
export AUTH_SECRET="${AUTH_SECRET:-$(cat .run/auth-secret)}"
export RATE_LIMIT_HASH_KEY="${RATE_LIMIT_HASH_KEY:-$(cat .run/rate-limit-hash-key)}"
