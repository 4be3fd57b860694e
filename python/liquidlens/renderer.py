"""Renderer: scenes to numpy images, batches to frames with their annotations."""
import contextlib
import ctypes
import errno
import json
import operator
import os
import threading
import weakref
from typing import Any, Callable, Dict, Iterator, Mapping, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _native
from .errors import SceneError

#: A scene or manifest: a dict (the JSON document), JSON text, or the path of a JSON file.
Document = Union[Mapping[str, Any], str, bytes, "os.PathLike[str]"]


class Frame(NamedTuple):
    """One frame of a batch: its index in the manifest, its pixels (H, W, 4) ``uint8`` RGBA with
    straight alpha, and its annotations (``None`` when not asked for). With masks asked for, the
    annotations hold them under ``"masks"``: ``{"glass": …, "tint": …}``, each (H, W) ``uint8``
    (see :meth:`Renderer.render_annotated`)."""

    index: int
    image: np.ndarray
    annotations: Optional[Dict[str, Any]]


def _plain(value: Any) -> Any:
    """A numpy scalar or array in a scene dict as the JSON value it stands for."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _source(document: Document) -> Tuple[Optional[bytes], Optional[bytes], Optional[bytes]]:
    """(JSON text, path, folder relative paths are read from) for the C ABI."""
    text: Optional[bytes] = None
    if isinstance(document, Mapping):
        text = json.dumps(document, default=_plain).encode("utf-8")
    elif isinstance(document, (bytes, bytearray)):
        text = bytes(document)
    elif isinstance(document, str) and document.lstrip().startswith("{"):
        text = document.encode("utf-8")
    elif isinstance(document, (str, os.PathLike)):
        path = os.fspath(document)
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, "no such file", path)
        return None, os.fsencode(path), None
    else:
        raise TypeError(f"expected a dict, JSON text or a path, not {type(document).__name__}")
    if b"\0" in text:
        raise SceneError("the JSON text holds a NUL byte")
    return text, None, os.fsencode(os.getcwd())


class _Handle:
    """A library object's pointer, freed once: by ``close()``, or when its owner is collected or
    the interpreter exits (``weakref.finalize`` runs before modules are torn down). A call in
    flight on another thread keeps it until the call returns."""

    def __init__(self, owner: object, pointer: int, free: Callable[[int], None], what: str) -> None:
        self._pointer: Optional[int] = pointer
        self._free = free
        self._what = what
        self._lock = threading.Lock()
        self._users = 0
        self._closing = False
        self._finalizer = weakref.finalize(owner, self.close)

    @contextlib.contextmanager
    def use(self) -> Iterator[int]:
        with self._lock:
            if self._closing or not self._pointer:
                raise ValueError(f"the {self._what} is closed")
            self._users += 1
            pointer = self._pointer
        try:
            yield pointer
        finally:
            with self._lock:
                self._users -= 1
                release = self._closing and self._users == 0
            if release:
                self._release()

    @property
    def closed(self) -> bool:
        return self._closing

    def close(self) -> None:
        with self._lock:
            if self._closing:
                return
            self._closing = True
            release = self._users == 0
        self._finalizer.detach()
        if release:
            self._release()

    def _release(self) -> None:
        pointer, self._pointer = self._pointer, None
        if pointer:
            self._free(pointer)


#: The C ABI's ``extras`` bits: what a frame carries besides its image.
_ANNOTATIONS, _MASKS = 1, 2

#: The masks a frame carries, in the C ABI's order.
_MASK_NAMES = ("glass", "tint")


def _extras(annotations: bool, masks: bool) -> int:
    return (_ANNOTATIONS if annotations else 0) | (_MASKS if masks else 0)


def _take(frame: int, extras: int) -> Frame:
    """The frame at `frame` as numpy pixels and a dict, copied once; the C frame freed."""
    lib = _native.library()
    try:
        height, width = lib.liquidlens_frame_height(frame), lib.liquidlens_frame_width(frame)
        image = np.empty((height, width, 4), dtype=np.uint8)
        if lib.liquidlens_frame_copy_pixels(frame, image.ctypes.data_as(ctypes.c_void_p), image.nbytes) != 0:
            raise AssertionError("the frame's size changed while it was copied")
        text = lib.liquidlens_frame_annotations(frame) if extras & _ANNOTATIONS else None
        annotations = json.loads(text) if text else None
        if extras & _MASKS:
            annotations = dict(annotations or {}, masks=_masks(lib, frame, height, width))
        return Frame(lib.liquidlens_frame_index(frame), image, annotations)
    finally:
        lib.liquidlens_frame_free(frame)


def _masks(lib: ctypes.CDLL, frame: int, height: int, width: int) -> Dict[str, np.ndarray]:
    """The frame's glass and tint masks, each (H, W) ``uint8``."""
    masks = {}
    for which, name in enumerate(_MASK_NAMES):
        mask = np.empty((height, width), dtype=np.uint8)
        if lib.liquidlens_frame_copy_mask(frame, which, mask.ctypes.data_as(ctypes.c_void_p), mask.nbytes) != 0:
            raise AssertionError(f"the frame carries no {name} mask")
        masks[name] = mask
    return masks


class Frames:
    """The frames of a batch manifest (or one shard of it) in order, rendered ahead on the
    library's own thread while you handle the current one. Iterate it; ``len()`` is the number
    of frames it yields. ``close()`` it, or use it in a ``with`` block, to stop the rendering
    early (an unfinished stream is also closed when it is collected, or at exit). A process that
    forks (a data loader's workers) must open its own: the rendering thread does not follow."""

    def __init__(self, renderer: "Renderer", manifest: Document, shard: Tuple[int, int], annotations: bool,
                 masks: bool = False) -> None:
        try:
            index, count = (operator.index(part) for part in shard)
        except (TypeError, ValueError):
            raise SceneError(f"shard: expected (i, n) with 0 ≤ i < n, not {shard!r}", "shard") from None
        if not 0 <= index < count:
            raise SceneError(f"shard: expected (i, n) with 0 ≤ i < n, not {shard!r}", "shard")
        text, path, base = _source(manifest)
        self._extras = _extras(annotations, masks)
        with renderer._handle.use() as pointer:
            opened = _native.call("liquidlens_frames_open", pointer, text, path, base, index, count, self._extras)
        lib = _native.library()
        self._count = lib.liquidlens_frames_count(opened)
        self._handle = _Handle(self, opened, lib.liquidlens_frames_close, "frame stream")

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> "Frames":
        return self

    def __next__(self) -> Frame:
        if self._handle.closed:
            raise StopIteration
        try:
            with self._handle.use() as pointer:
                frame = _native.call("liquidlens_frames_next", pointer)
        except BaseException:
            self.close()
            raise
        if not frame:
            self.close()
            raise StopIteration
        return _take(frame, self._extras)

    def close(self) -> None:
        """Stops the rendering and lets go of the frames not taken."""
        self._handle.close()

    def __enter__(self) -> "Frames":
        return self

    def __exit__(self, *exception: Any) -> None:
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
        pointer = _native.call("liquidlens_renderer_create", backend.encode("utf-8"), selected)
        self._handle = _Handle(self, pointer, _native.library().liquidlens_renderer_free, "renderer")

    @property
    def backend(self) -> str:
        """The backend that renders: ``"vulkan"`` or ``"cpu"``."""
        with self._handle.use() as pointer:
            return _native.library().liquidlens_renderer_backend(pointer).decode("utf-8")

    @property
    def device(self) -> Optional[str]:
        """The Vulkan device's name; ``None`` on the CPU."""
        with self._handle.use() as pointer:
            return _native.take_string(_native.library().liquidlens_renderer_device(pointer))

    def render(self, scene: Document) -> np.ndarray:
        """The scene's frame as a (H, W, 4) ``uint8`` RGBA array (straight alpha). ``scene`` is a
        dict, JSON text or the path of a scene file; a wrong one raises :class:`SceneError` with
        the message and key path ``liquidlens render`` prints."""
        return self._render(scene, 0).image

    def render_annotated(self, scene: Document, masks: bool = False) -> Tuple[np.ndarray, Dict[str, Any]]:
        """The scene's frame and its annotations: every glass element's and control part's box
        in pixels, the controls' states, the effective optics and the backdrop's luminance under
        each glass (as ``liquidlens render --annotations`` writes them). With ``masks``, also
        ``annotations["masks"]``: ``"glass"``, how much of each pixel is glass, and ``"tint"``,
        how much of it is a label glyph in the accent colour, each (H, W) ``uint8`` 0…255 (the
        PNGs ``liquidlens render --masks`` writes)."""
        frame = self._render(scene, _extras(True, masks))
        assert frame.annotations is not None
        return frame.image, frame.annotations

    def frames(self, manifest: Document, shard: Tuple[int, int] = (0, 1), annotations: bool = True,
               masks: bool = False) -> Frames:
        """The frames of a batch manifest (a scene list, a sweep or random frames; the format
        ``liquidlens batch`` reads), or of shard ``(i, n)`` of it, as :class:`Frame` tuples
        ``(index, image, annotations)`` in order, the annotations holding ``"masks"`` with
        ``masks`` (see :meth:`render_annotated`). The next frames render on a renderer of this
        one's backend and device while you handle the current one, as ``liquidlens batch``
        does; the shards' union is the whole batch."""
        return Frames(self, manifest, shard, annotations, masks)

    def close(self) -> None:
        """Lets go of the renderer (its Vulkan device) once renders in flight on other threads
        return; frame streams already opened go on."""
        self._handle.close()

    def __enter__(self) -> "Renderer":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()

    def _render(self, scene: Document, extras: int) -> Frame:
        text, path, base = _source(scene)
        with self._handle.use() as pointer:
            frame = _native.call("liquidlens_render", pointer, text, path, base, extras)
        return _take(frame, extras)


def frames(manifest: Document, shard: Tuple[int, int] = (0, 1), backend: str = "auto",
           device: Union[int, str, None] = None, annotations: bool = True, masks: bool = False) -> Iterator[Frame]:
    """The frames of a batch manifest on a renderer of ``backend`` and ``device`` of their own:
    ``Renderer(backend, device).frames(…)``; errors in the manifest raise at once."""
    with Renderer(backend, device) as renderer:
        stream = renderer.frames(manifest, shard, annotations, masks)

    def generate() -> Iterator[Frame]:
        with stream:
            yield from stream

    return generate()
