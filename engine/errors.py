"""The one exception type the engine raises for bad input."""
from __future__ import annotations


class EngineError(ValueError):
    """Invalid input to the engine.

    ``code`` is a stable machine-readable identifier, ``message`` a sentence for
    people, ``field`` the contract field at fault (or ``None``).
    """

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def to_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}
