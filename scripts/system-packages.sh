#!/usr/bin/env bash
# The Debian packages spatialprobe needs, installed with apt when any is missing (Debian 12):
# python3, make and g++ (better-sqlite3 compiles its native module with node-gyp), ffmpeg/ffprobe
# (video frames: the VCN-Bench and EgoTL-Bench examples are mp4, the generators write mp4),
# chromium (the browser tests of the HTML report and the viewer, driven by playwright-core),
# DejaVu fonts (labels drawn in overlay pictures) and sweethome3d-furniture (820 CC0 / CC-BY
# furniture models the world engine builds scenes from, in /usr/share/sweethome3d/furniture)
# and postgresql (the queue server of `run --queue`, docs/queue.md).
# Runs apt-get as root, or through sudo when not root. Installs nothing when all are present.
set -euo pipefail

need=()
for tool in python3 make g++ ffmpeg ffprobe chromium; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
compgen -G "/usr/share/sweethome3d/furniture/*.sh3f" >/dev/null || need+=(sweethome3d-furniture)
# PostgreSQL, the queue server of `--queue` (scripts/queue-server.sh starts it).
{ command -v pg_ctlcluster >/dev/null 2>&1 && compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null; } || need+=(postgresql)
[ "${#need[@]}" -eq 0 ] && exit 0

echo "installing Debian packages (missing: ${need[*]})" >&2
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "missing ${need[*]}: run this script as root, or install sudo" >&2; exit 1; }
  as_root=(sudo)
fi
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends python3 make g++ ffmpeg chromium fonts-dejavu-core sweethome3d-furniture postgresql
