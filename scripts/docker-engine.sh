#!/usr/bin/env bash
# A real Docker engine for the container tests, the way /work/shared/notes/machine.md describes this machine:
# Debian's docker.io, vfs storage (no overlay in a container), no iptables and no bridge network, so containers
# run with host networking and servers are reached on loopback only.
#
#   scripts/docker-engine.sh start    install dockerd if missing, start it, wait until `docker info` answers
#   scripts/docker-engine.sh stop     stop the dockerd this script started (by its pid), nothing else
#   scripts/docker-engine.sh status   say whether an engine answers and whether this script started it
#
# State (pid file and log) lives in $RDX_DOCKER_STATE (default ${TMPDIR:-/tmp}/rdx-docker-engine).
set -euo pipefail

STATE_DIR="${RDX_DOCKER_STATE:-${TMPDIR:-/tmp}/rdx-docker-engine}"
PID_FILE="$STATE_DIR/dockerd.pid"
LOG_FILE="$STATE_DIR/dockerd.log"
START_WAIT_S=60
STOP_WAIT_S=20

say() { printf 'docker-engine: %s\n' "$*" >&2; }

engine_answers() { timeout 5 docker info >/dev/null 2>&1; }

# The pid file may outlive its dockerd (reboot, kill -9) and the pid may have been reused: only a live process
# named dockerd counts as ours.
our_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == dockerd ]] || return 1
  printf '%s\n' "$pid"
}

install_engine() {
  if command -v dockerd >/dev/null 2>&1; then return 0; fi
  say "dockerd is missing: installing Debian's docker.io"
  local sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { say "not root and no sudo: install docker.io yourself"; exit 1; }
    sudo=(sudo)
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq docker.io >/dev/null
}

start() {
  if engine_answers; then
    if pid="$(our_pid)"; then say "already running (dockerd pid $pid, log $LOG_FILE)"; else say "an engine already answers (not started by this script)"; fi
    return 0
  fi
  install_engine
  command -v docker >/dev/null 2>&1 || { say "no docker CLI after installing docker.io"; exit 1; }
  mkdir -p "$STATE_DIR"
  local pid
  if ! pid="$(our_pid)"; then
    # setsid: dockerd must not die with this shell or get the terminal's Ctrl-C.
    setsid dockerd --storage-driver=vfs --iptables=false --bridge=none >"$LOG_FILE" 2>&1 </dev/null &
    pid=$!
    printf '%s\n' "$pid" >"$PID_FILE"
  fi
  local deadline=$((SECONDS + START_WAIT_S))
  until engine_answers; do
    if ! kill -0 "$pid" 2>/dev/null; then
      say "dockerd exited during startup; last lines of $LOG_FILE:"
      tail -n 20 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      exit 1
    fi
    if ((SECONDS >= deadline)); then
      say "docker info did not answer within ${START_WAIT_S}s; dockerd pid $pid left running, log $LOG_FILE"
      exit 1
    fi
    sleep 1
  done
  say "running: dockerd pid $pid, log $LOG_FILE"
  say "for testcontainers here: export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 TESTCONTAINERS_RYUK_DISABLED=true"
}

stop() {
  local pid
  if ! pid="$(our_pid)"; then
    say "no dockerd started by this script is running"
    rm -f "$PID_FILE"
    return 0
  fi
  kill -TERM "$pid"
  local deadline=$((SECONDS + STOP_WAIT_S))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      say "dockerd pid $pid still running after ${STOP_WAIT_S}s: sending KILL"
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.5
  done
  rm -f "$PID_FILE"
  say "stopped dockerd pid $pid (log kept at $LOG_FILE)"
}

status() {
  local pid=""
  pid="$(our_pid)" || pid=""
  if engine_answers; then
    say "an engine answers${pid:+ (dockerd pid $pid started by this script, log $LOG_FILE)}"
  else
    say "no engine answers${pid:+ (dockerd pid $pid is starting or stuck, log $LOG_FILE)}"
    return 1
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) say "usage: $0 start|stop|status"; exit 2 ;;
esac
