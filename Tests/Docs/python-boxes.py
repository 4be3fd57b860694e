"""The "From Python" article's example, as the article shows it: a thousand random segmented-control
frames with their annotations from the Python package, one of them saved with its boxes drawn
(glass red, segments yellow, titles' ink cyan). Makes the article's picture
(Sources/LiquidLens/LiquidLens.docc/Resources/python-boxes.png); look at it after a change.

Usage: .venv-tests/bin/python3 Tests/Docs/python-boxes.py [picture.png]
(the package installed with `pip install -e python`, the library built with
`swift build -c release --product LiquidLensC`; Pillow for the drawing)
"""
import sys
import time

from PIL import Image, ImageDraw

import liquidlens

manifest = {
    "scene": {"example": "segmented"}, "name": "segmented", "count": 1000, "seed": 2026,
    "sample": [
        {"key": "controls[0].thumbPosition", "uniform": [0, 4]},
        {"key": "controls[0].lift", "uniform": [0, 1]},
        {"key": "controls[0].appearance", "choice": ["light", "dark"]},
    ],
}

renderer = liquidlens.Renderer(backend="auto")
started = time.perf_counter()
boxes = 0
for index, image, annotations in renderer.frames(manifest):
    control = annotations["controls"][0]
    boxes += len(annotations["glass"]) + len(control["parts"])
    if index == 417:
        picture = Image.fromarray(image)
        draw = ImageDraw.Draw(picture)

        def outline(box, colour):
            x, y, width, height = box
            draw.rectangle([x, y, x + width, y + height], outline=colour, width=2)

        for glass in annotations["glass"]:
            outline(glass["box"], (255, 32, 32))
        for part in control["parts"]:
            if part.get("glass") is None:
                outline(part["box"], (255, 208, 0))
            if "textBox" in part:
                outline(part["textBox"], (0, 224, 255))
        state = control["state"]
        print(f"frame {index}: segment {state['selectedIndex']} selected, lift {state['lift']:.2f}")
elapsed = time.perf_counter() - started
print(f"1000 frames, {boxes} boxes, on {renderer.backend}, in {elapsed:.1f} s")
picture.save(sys.argv[1] if len(sys.argv) > 1 else "segmented-boxes.png")
