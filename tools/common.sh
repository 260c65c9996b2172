# Sourced by tools/run and tools/test.
# A pyenv or virtualenv python first on PATH must not leak into the build:
# the worker embeds the system's CPython, found through pkg-config.
clean_path=""
IFS=: read -ra parts <<< "$PATH"
for p in "${parts[@]}"; do
  case "$p" in
    *pyenv*|*virtualenv*|*/.venv/*|*conda*) ;;
    *) clean_path="${clean_path:+$clean_path:}$p" ;;
  esac
done
export PATH="$clean_path"
unset PYTHONHOME PYTHONPATH VIRTUAL_ENV
if [ -n "${PKG_CONFIG_PATH:-}" ]; then
  PKG_CONFIG_PATH=$(printf '%s' "$PKG_CONFIG_PATH" | tr ':' '\n' | grep -vE 'pyenv|conda|venv' | paste -sd: -)
  export PKG_CONFIG_PATH
fi

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="${VIVA_BUILD_DIR:-$top/build}"

viva_setup () {
  "$top/tools/setup"
}

viva_build () {
  if [ ! -f "$build_dir/build.ninja" ]; then
    meson setup "$build_dir" "$top" "$@"
  fi
  meson compile -C "$build_dir"
}
