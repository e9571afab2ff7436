#!/usr/bin/env bash
# Rasterises resources/*.svg into the PNGs the app and electron-builder use (committed, so that a
# build needs no SVG tools). Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/../../resources"
rsvg-convert -w 1024 -h 1024 icon.svg -o icons/icon-1024.png # electron-builder: .icns and .ico are made from it
rsvg-convert -w 512 -h 512 icon.svg -o icons/icon.png         # window icon, Linux packages
rsvg-convert -w 32 -h 32 tray.svg -o icons/tray.png
rsvg-convert -w 64 -h 64 tray.svg -o icons/tray@2x.png        # picked by Electron on HiDPI screens
