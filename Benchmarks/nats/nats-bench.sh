#!/usr/bin/env bash
# The NATS JetStream figures (docs/reference/nats.md, Benchmarks/README.md "NATS JetStream"):
# `publish`'s rate into a stream, and `serve --nats --state`'s rate end to end (start-up
# included: from the start of the instances to the last fix read) with 1 and 2 instances,
# compared with one `watch` over the same fixes in the same run (which must print the same
# notifications: checked).
#
#   bash Benchmarks/nats/nats-bench.sh [--binary PATH] [--fixes FILE] [--reps N] [--replicas 1|3]
#
# It starts its own nats-server (one, or three in a cluster with --replicas 3) on free loopback
# ports with a store in a temporary directory, and removes it at the end. Default fixes:
# /work/benchdata/devices-10k.ndjson (1,000,000 fixes of 10,000 devices: `landmark-bench generate`).
set -euo pipefail
binary=.build/release/landmark-near
fixes=/work/benchdata/devices-10k.ndjson
landmarks=/work/benchdata/landmarks-synthetic-10k.csv
reps=3
replicas=1
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=$2; shift 2 ;;
    --fixes) fixes=$2; shift 2 ;;
    --landmarks) landmarks=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --replicas) replicas=$2; shift 2 ;;
    *) echo "nats-bench.sh: unknown option $1" >&2; exit 64 ;;
  esac
done
binary=$(realpath "$binary")
options=(--landmarks "$landmarks" --favorites all)
work=$(mktemp -d /tmp/nats-bench.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now() { date +%s.%N; }

servers=$([ "$replicas" = 3 ] && echo 3 || echo 1)
clients=(); routes=(); monitors=()
for n in $(seq 1 "$servers"); do clients+=("$(port)"); routes+=("$(port)"); monitors+=("$(port)"); done
for n in $(seq 1 "$servers"); do
  i=$((n - 1))
  {
    echo "server_name: n$n"; echo "listen: 127.0.0.1:${clients[$i]}"; echo "http: 127.0.0.1:${monitors[$i]}"
    echo "jetstream { store_dir: \"$work/store-$n\", max_mem: 64MB, max_file: 4GB }"
    if [ "$servers" = 3 ]; then
      echo "cluster { name: bench, listen: 127.0.0.1:${routes[$i]}, routes: ["
      for m in 0 1 2; do [ "$m" = "$i" ] || echo "  nats-route://127.0.0.1:${routes[$m]}"; done
      echo "] }"
    fi
  } > "$work/n$n.conf"
  nats-server -c "$work/n$n.conf" > "$work/n$n.log" 2>&1 &
  pids+=($!)
done
urls=$(for c in "${clients[@]}"; do printf 'nats://127.0.0.1:%s,' "$c"; done | sed 's/,$//')
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:${monitors[0]}/healthz?js-enabled-only=true" > /dev/null && break; sleep 0.1
done
sleep $([ "$servers" = 3 ] && echo 3 || echo 0)
count=$(wc -l < "$fixes")

start=$(now); "$binary" watch "${options[@]}" "$fixes" > "$work/watch.out" 2> /dev/null; end=$(now)
echo "watch: $(echo "$count / ($end - $start)" | bc) fixes/s ($(echo "$end - $start" | bc) s)"
reference=$(sort "$work/watch.out" | md5sum)

# One instance per partition list; the rate from their start to the last record read.
consume() {
  local stream=$1; shift
  local i=0 ports=() started total
  started=$(now)
  for parts in "$@"; do
    ports+=("$(port)")
    "$binary" serve --nats "$urls" --nats-stream "$stream" --nats-partitions "$parts" --state "$work/$stream-$#-$i.db" \
      "${options[@]}" --listen "127.0.0.1:${ports[$i]}" > "$work/$stream-$#-$i.out" 2> "$work/$stream-$#-$i.err" &
    i=$((i + 1))
  done
  while true; do
    total=0
    for p in "${ports[@]}"; do
      m=$(curl -s "127.0.0.1:$p/metrics" 2> /dev/null | awk '/^landmark_near_records_total/ {print $2}' || true)
      total=$((total + ${m:-0}))
    done
    [ "$total" -ge "$count" ] && break
    sleep 0.05
  done
  local ended; ended=$(now)
  for job in $(jobs -p); do
    case " ${pids[*]} " in *" $job "*) ;; *) kill -TERM "$job" ;; esac
  done
  for job in $(jobs -p); do case " ${pids[*]} " in *" $job "*) ;; *) wait "$job" || true ;; esac; done
  local same; same=$([ "$(cat "$work/$stream-$#"-*.out | sort | md5sum)" = "$reference" ] && echo "same as watch" || echo "DIFFERENT from watch")
  echo "serve --nats, $# instance(s) ($*): $(echo "$count / ($ended - $started)" | bc) fixes/s ($(echo "$ended - $started" | bc) s), $same"
}

for rep in $(seq 1 "$reps"); do
  stream=B$rep
  start=$(now)
  "$binary" publish -q --nats "$urls" --nats-stream "$stream" --partitions 4 --replicas "$replicas" "$fixes"
  end=$(now)
  echo "rep $rep: publish (replicas $replicas): $(echo "$count / ($end - $start)" | bc) fixes/s ($(echo "$end - $start" | bc) s)"
  consume "$stream" 0-3
  consume "$stream" 0,1 2,3
done
