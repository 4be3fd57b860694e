"""The exceptions the package raises: one line, the message the command line prints."""
from typing import Any, Mapping, Optional


class LiquidLensError(Exception):
    """A failure of the library: its one-line message, and the key path of the scene or
    manifest it names (empty when it names none)."""

    def __init__(self, message: str, key_path: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.key_path = key_path or ""


class SceneError(LiquidLensError, ValueError):
    """A scene, manifest or argument is wrong: ``message`` as the CLI prints it (``glass[0].optics.frost:
    expected a number in 0…40``), ``key_path`` the key it names."""


class BackendError(LiquidLensError, RuntimeError):
    """The backend asked for cannot render (no usable Vulkan device, a lost device)."""


def error_from_report(report: Mapping[str, Any]) -> LiquidLensError:
    """The exception for a failure the library reported as ``{"kind", "message", "keyPath"}``."""
    kinds = {"scene": SceneError, "backend": BackendError}
    return kinds.get(report.get("kind"), LiquidLensError)(report.get("message", ""), report.get("keyPath"))
