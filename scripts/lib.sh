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
  # The compiled rules engine is opt-in (SHOESCHOOL_COMPILE_ENGINE=1): about 1.4 times
  # faster, but a compiled module shadows its source, so day-to-day work stays pure Python.
  if [ "${SHOESCHOOL_COMPILE_ENGINE:-}" = 1 ]; then
    scripts/build-engine || echo "warning: could not compile the rules engine; using pure Python" >&2
  fi
}
