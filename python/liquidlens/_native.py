"""The LiquidLens C ABI (the SwiftPM product ``LiquidLensC``), loaded with ctypes.

The shared library is loaded from ``$LIQUIDLENS_LIBRARY`` when it is set, and only from there;
else it is looked for beside this package, then in the SwiftPM build folders (``.build/release``,
then ``.build/debug``) of the checkout this package lies in, which is where
``pip install -e python`` leaves it. ctypes lets go of the GIL
for every call, so a render on one thread does not hold up the others.
"""
import ctypes
import json
import os
import threading
from pathlib import Path
from typing import Any, List, Optional

from .errors import LiquidLensError, error_from_report

LIBRARY_NAME = "libLiquidLensC.so"
BUILD_HINT = "swift build -c release --product LiquidLensC"

_loaded: Optional[ctypes.CDLL] = None
_loading = threading.Lock()

_pointer = ctypes.c_void_p
_size = ctypes.c_ssize_t
_text = ctypes.c_char_p
_flag = ctypes.c_int32
_error = ctypes.POINTER(ctypes.c_void_p)

# name: (result, arguments)
_PROTOTYPES = {
    "liquidlens_renderer_create": (_pointer, [_text, _text, _error]),
    "liquidlens_renderer_backend": (_text, [_pointer]),
    "liquidlens_renderer_device": (_pointer, [_pointer]),
    "liquidlens_renderer_free": (None, [_pointer]),
    "liquidlens_render": (_pointer, [_pointer, _text, _text, _text, _flag, _error]),
    "liquidlens_frame_width": (_size, [_pointer]),
    "liquidlens_frame_height": (_size, [_pointer]),
    "liquidlens_frame_index": (_size, [_pointer]),
    "liquidlens_frame_copy_pixels": (ctypes.c_int32, [_pointer, _pointer, _size]),
    "liquidlens_frame_annotations": (_text, [_pointer]),
    "liquidlens_frame_copy_mask": (ctypes.c_int32, [_pointer, ctypes.c_int32, _pointer, _size]),
    "liquidlens_frame_free": (None, [_pointer]),
    "liquidlens_frames_open": (_pointer, [_pointer, _text, _text, _text, _size, _size, _flag, _error]),
    "liquidlens_frames_count": (_size, [_pointer]),
    "liquidlens_frames_next": (_pointer, [_pointer, _error]),
    "liquidlens_frames_close": (None, [_pointer]),
    "liquidlens_string_free": (None, [_pointer]),
}


def candidates() -> List[Path]:
    """Where the shared library is looked for, in order; only ``$LIQUIDLENS_LIBRARY`` when set."""
    if os.environ.get("LIQUIDLENS_LIBRARY"):
        return [Path(os.environ["LIQUIDLENS_LIBRARY"])]
    found = []
    here = Path(__file__).resolve().parent
    found.append(here / LIBRARY_NAME)
    for folder in here.parents:
        if (folder / "Package.swift").is_file():
            found += [folder / ".build" / "release" / LIBRARY_NAME, folder / ".build" / "debug" / LIBRARY_NAME]
            break
    return found


def library() -> ctypes.CDLL:
    """The loaded library, loaded on first use."""
    global _loaded
    if _loaded is not None:
        return _loaded
    with _loading:
        if _loaded is None:
            _loaded = _load()
        return _loaded


def _load() -> ctypes.CDLL:
    tried = candidates()
    path = next((candidate for candidate in tried if candidate.is_file()), None)
    if path is None:
        places = ", ".join(str(candidate) for candidate in tried)
        raise LiquidLensError(f"{LIBRARY_NAME} not found (looked at {places}); build it in the checkout with "
                              f"`{BUILD_HINT}`, or set LIQUIDLENS_LIBRARY to its path")
    try:
        loaded = ctypes.CDLL(str(path))
    except OSError as error:
        raise LiquidLensError(f"{path} cannot be loaded: {error}") from error
    for name, (result, arguments) in _PROTOTYPES.items():
        try:
            function = getattr(loaded, name)
        except AttributeError:
            raise LiquidLensError(f"{path} has no {name}: it is older than this package; rebuild it with "
                                  f"`{BUILD_HINT}`") from None
        function.restype = result
        function.argtypes = arguments
    return loaded


def call(name: str, *arguments: Any) -> int:
    """Calls `name` with an error slot after `arguments`; raises what it reports, else returns
    the pointer it returned (0 for the end of a stream)."""
    lib = library()
    report = ctypes.c_void_p()
    result = getattr(lib, name)(*arguments, ctypes.byref(report))
    if report.value:
        text = ctypes.string_at(report.value).decode("utf-8")
        lib.liquidlens_string_free(report)
        raise error_from_report(json.loads(text))
    return result or 0


def take_string(pointer: Optional[int]) -> Optional[str]:
    """The string at `pointer`, which the library allocated; freed."""
    if not pointer:
        return None
    text = ctypes.string_at(pointer).decode("utf-8")
    library().liquidlens_string_free(pointer)
    return text
