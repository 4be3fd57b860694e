"""Renderer: scenes to numpy images, batches to frames with their annotations."""
import ctypes
import errno
import json
import os
from typing import Any, Dict, Iterator, Mapping, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _native
from .errors import SceneError

#: A scene or manifest: a dict (the JSON document), JSON text, or the path of a JSON file.
Document = Union[Mapping[str, Any], str, bytes, "os.PathLike[str]"]


class Frame(NamedTuple):
    """One frame of a batch: its index in the manifest, its pixels (H, W, 4) ``uint8`` RGBA with
    straight alpha, and its annotations (``None`` when not asked for)."""

    index: int
    image: np.ndarray
    annotations: Optional[Dict[str, Any]]


def _source(document: Document) -> Tuple[Optional[bytes], Optional[bytes], Optional[bytes]]:
    """(JSON text, path, folder relative paths are read from) for the C ABI."""
    if isinstance(document, Mapping):
        return json.dumps(document).encode("utf-8"), None, os.fsencode(os.getcwd())
    if isinstance(document, (bytes, bytearray)):
        return bytes(document), None, os.fsencode(os.getcwd())
    if isinstance(document, str) and document.lstrip().startswith("{"):
        return document.encode("utf-8"), None, os.fsencode(os.getcwd())
    if isinstance(document, (str, os.PathLike)):
        path = os.fspath(document)
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, "no such file", path)
        return None, os.fsencode(path), None
    raise TypeError(f"expected a dict, JSON text or a path, not {type(document).__name__}")


def _take(frame: int, annotated: bool) -> Frame:
    """The frame at `frame` as numpy pixels and a dict, copied once; the C frame freed."""
    lib = _native.library()
    try:
        height, width = lib.liquidlens_frame_height(frame), lib.liquidlens_frame_width(frame)
        image = np.empty((height, width, 4), dtype=np.uint8)
        if lib.liquidlens_frame_copy_pixels(frame, image.ctypes.data_as(ctypes.c_void_p), image.nbytes) != 0:
            raise AssertionError("the frame's size changed while it was copied")
        text = lib.liquidlens_frame_annotations(frame) if annotated else None
        return Frame(lib.liquidlens_frame_index(frame), image, json.loads(text) if text else None)
    finally:
        lib.liquidlens_frame_free(frame)


class Frames:
    """The frames of a batch manifest (or one shard of it) in order, rendered ahead on the
    library's own thread while you handle the current one. Iterate it; ``len()`` is the number
    of frames it yields. Close it (or leave a ``with`` block, or stop iterating to the end) to
    stop the rendering early."""

    def __init__(self, renderer: "Renderer", manifest: Document, shard: Tuple[int, int], annotations: bool) -> None:
        index, count = shard
        if not (isinstance(index, int) and isinstance(count, int) and count >= 1 and 0 <= index < count):
            raise SceneError(f"shard: expected (i, n) with 0 ≤ i < n, not {shard!r}", "shard")
        text, path, base = _source(manifest)
        self._annotations = annotations
        self._handle = _native.call("liquidlens_frames_open", renderer._pointer(), text, path, base, index, count,
                                    1 if annotations else 0)
        self._count = _native.library().liquidlens_frames_count(self._handle)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> "Frames":
        return self

    def __next__(self) -> Frame:
        if not self._handle:
            raise StopIteration
        try:
            frame = _native.call("liquidlens_frames_next", self._handle)
        except BaseException:
            self.close()
            raise
        if not frame:
            self.close()
            raise StopIteration
        return _take(frame, self._annotations)

    def close(self) -> None:
        """Stops the rendering and lets go of the frames not taken."""
        if getattr(self, "_handle", None):
            handle, self._handle = self._handle, None
            _native.library().liquidlens_frames_close(handle)

    def __enter__(self) -> "Frames":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


class Renderer:
    """Renders scenes with the LiquidLens library: ``backend`` is ``"auto"`` (Vulkan when a
    usable device exists, else the CPU reference), ``"vulkan"`` or ``"cpu"``; ``device`` a Vulkan
    device index or a part of its name (``None``: the best usable one). Both backends draw the
    same pixels. One renderer may be used from several threads: renders take turns on it, and
    each releases the GIL while it runs.

    >>> renderer = liquidlens.Renderer(backend="cpu")
    >>> image = renderer.render({"canvas": {"width": 200, "height": 80},
    ...                          "glass": [{"shape": "capsule", "frame": {"x": 20, "y": 16, "width": 160, "height": 48}}]})
    """

    def __init__(self, backend: str = "auto", device: Union[int, str, None] = None) -> None:
        if backend not in ("auto", "vulkan", "cpu"):
            raise SceneError(f"backend: expected auto, vulkan or cpu, not {backend!r}", "backend")
        selected = None if device is None else str(device).encode("utf-8")
        self._handle = _native.call("liquidlens_renderer_create", backend.encode("utf-8"), selected)

    @property
    def backend(self) -> str:
        """The backend that renders: ``"vulkan"`` or ``"cpu"``."""
        return _native.library().liquidlens_renderer_backend(self._pointer()).decode("utf-8")

    @property
    def device(self) -> Optional[str]:
        """The Vulkan device's name; ``None`` on the CPU."""
        return _native.take_string(_native.library().liquidlens_renderer_device(self._pointer()))

    def render(self, scene: Document) -> np.ndarray:
        """The scene's frame as a (H, W, 4) ``uint8`` RGBA array (straight alpha). ``scene`` is a
        dict, JSON text or the path of a scene file; a wrong one raises :class:`SceneError` with
        the message and key path ``liquidlens render`` prints."""
        return self._render(scene, annotated=False).image

    def render_annotated(self, scene: Document) -> Tuple[np.ndarray, Dict[str, Any]]:
        """The scene's frame and its annotations: every glass element's and control part's box
        in pixels, the controls' states, the effective optics and the backdrop's luminance under
        each glass (as ``liquidlens render --annotations`` writes them)."""
        frame = self._render(scene, annotated=True)
        assert frame.annotations is not None
        return frame.image, frame.annotations

    def frames(self, manifest: Document, shard: Tuple[int, int] = (0, 1), annotations: bool = True) -> Frames:
        """The frames of a batch manifest (a scene list, a sweep or random frames; the format
        ``liquidlens batch`` reads), or of shard ``(i, n)`` of it, as :class:`Frame` tuples
        ``(index, image, annotations)`` in order. The next frames render on a renderer of this
        one's backend and device while you handle the current one, as ``liquidlens batch``
        does; the shards' union is the whole batch."""
        return Frames(self, manifest, shard, annotations)

    def close(self) -> None:
        """Lets go of the renderer (its Vulkan device); frames already opened go on."""
        if getattr(self, "_handle", None):
            handle, self._handle = self._handle, None
            _native.library().liquidlens_renderer_free(handle)

    def __enter__(self) -> "Renderer":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def _pointer(self) -> int:
        if not self._handle:
            raise ValueError("the renderer is closed")
        return self._handle

    def _render(self, scene: Document, annotated: bool) -> Frame:
        text, path, base = _source(scene)
        frame = _native.call("liquidlens_render", self._pointer(), text, path, base, 1 if annotated else 0)
        return _take(frame, annotated)


def frames(manifest: Document, shard: Tuple[int, int] = (0, 1), backend: str = "auto",
           annotations: bool = True) -> Iterator[Frame]:
    """The frames of a batch manifest on a new renderer of ``backend``: ``Renderer(backend).frames(…)``."""
    with Renderer(backend) as renderer, renderer.frames(manifest, shard, annotations) as stream:
        yield from stream
