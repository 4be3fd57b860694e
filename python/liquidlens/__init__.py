"""LiquidLens from Python: Apple-style Liquid Glass lenses rendered offscreen into numpy arrays,
with per-frame annotations and batches from the same manifests ``liquidlens batch`` reads.

>>> import liquidlens
>>> renderer = liquidlens.Renderer(backend="auto")
>>> image = renderer.render("Tests/Samples/lens.json")        # (H, W, 4) uint8
>>> for index, image, boxes in renderer.frames("Tests/Samples/random.json"):
...     pass

The package calls the project's shared library (the SwiftPM product ``LiquidLensC``) through
ctypes; see ``_native`` for where it is looked for.
"""
from .errors import BackendError, LiquidLensError, SceneError
from .renderer import Document, Frame, Frames, Renderer, frames

__all__ = ["BackendError", "Document", "Frame", "Frames", "LiquidLensError", "Renderer", "SceneError", "frames"]
