# Shared by scripts/run and scripts/test: make .venv and install a requirements file,
# skipping the install when the file has not changed since the last one.
ensure_venv() {
  local requirements="$1"
  local python="${PYTHON:-python3}"
  if [ ! -x .venv/bin/python ]; then
    echo "Creating the virtual environment in .venv"
    "$python" -m venv .venv
    .venv/bin/pip install --quiet --upgrade pip
  fi
  local stamp=".venv/.installed-$(basename "$requirements")"
  local digest
  digest="$(cat requirements*.txt | sha256sum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$digest" ]; then
    echo "Installing $requirements"
    .venv/bin/pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$digest" > "$stamp"
  fi
  # The compiled rules engine is optional: build-engine warns and leaves pure Python in place
  # on any failure, and does nothing when the engine's sources are unchanged since the last build.
  if [ "${SHOE_PURE_ENGINE:-}" = 1 ]; then
    :
  elif command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then
    scripts/build-engine || echo "warning: could not compile the rules engine; using pure Python" >&2
  else
    echo "warning: no C compiler; the rules engine runs as pure Python" >&2
  fi
}
