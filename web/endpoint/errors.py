"""API errors: one exception type, rendered as {"error": {"code", "message"}}."""

from __future__ import annotations


class ApiError(Exception):
    """An error the API reports to the caller with a status, a code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, dict[str, str]]:
        """The JSON error object."""
        return {"error": {"code": self.code, "message": self.message}}


def not_found_play() -> ApiError:
    """The one answer for unknown plays and other players' plays alike."""
    return ApiError(404, "play_not_found", "There is no such play on this account.")


def unknown_game(game: str) -> ApiError:
    """The answer for a game id the endpoint does not sell."""
    return ApiError(404, "game_not_found", f"There is no game {game[:64]!r}.")
