#!/bin/sh
# Launch the Pet Store service with gunicorn on 127.0.0.1:$PORT.
#   PORT       TCP port to listen on (required)
#   KEYS_FILE  JSON array of API keys, e.g. [{"key":"k1","plan":"pro"}] (required)
set -eu
: "${PORT:?set PORT to the port to listen on}"
: "${KEYS_FILE:?set KEYS_FILE to the JSON file of API keys}"
case "$PORT" in ''|*[!0-9]*) echo "run.sh: PORT must be a number" >&2; exit 2 ;; esac
[ -r "$KEYS_FILE" ] || { echo "run.sh: KEYS_FILE $KEYS_FILE is not readable" >&2; exit 2; }
export KEYS_FILE
cd "$(dirname "$0")"
# One worker (state is in memory), gthread so one slow client cannot stall the
# worker into a timeout kill; no proxy sits in front, so trust no forwarded headers.
exec /usr/bin/python3 -m gunicorn \
    --bind "127.0.0.1:$PORT" \
    --workers 1 \
    --worker-class gthread \
    --threads 4 \
    --forwarded-allow-ips "" \
    --preload \
    petstore.wsgi:app
