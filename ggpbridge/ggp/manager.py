"""The game manager: runs one match between GGP players and keeps its record.

Players are reached over HTTP (`http://host:port/`) or run in-process
(`builtin:random|legal|mc`, the same Player class the server uses). The manager
plays `random` itself (and any role given no player), sends START to all,
PLAY each turn and STOP at the end, all players of a turn at once. An answer
that is late, missing, unreadable or illegal is replaced by a legal move drawn
from the match's random generator and recorded as an error. The record is a
JSON-ready dict (format in docs/ggp.md). A match that reaches `max_steps`
without a terminal state is ended with ABORT and recorded with `aborted` true
and no goals.
"""
from __future__ import annotations

import http.client
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from urllib.parse import urlsplit

from ..gdl.ast import Description
from ..gdl.asp_terms import symbol_kif, symbol_term, term_symbol
from ..gdl.errors import GdlError
from ..gdl.kif import to_kif
from ..gdl.machine import ClingoMachine
from ..gdl.validate import detect_gdl_version
from ..moves import GdlCards
from ..translate import is_kif, load_description
from .player import STRATEGIES, Player
from .protocol import Abort, GgpError, Play, ProtocolError, Start, Stop, parse_move_reply, print_message

RECORD_FORMAT = "ggpbridge-match/1"


class TransportError(GgpError):
    """A player could not be reached (kind "connection"/"timeout") or answered an error ("error")."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind


# A reply is a move, `ready`, `done` or an INFO line: far below this. A larger one is refused
# unread rather than held in memory and parsed (a player, too, may be broken or hostile).
MAX_REPLY = 1 << 20


class HttpTransport:
    """A player at an HTTP address: one POST per message."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise GgpError(f"a player address is http://host:port/ or builtin:STRATEGY, not {url!r}")
        self.address = url
        self._host, self._port, self._path = parts.hostname, parts.port or 80, parts.path or "/"

    def send(self, text: str, timeout: float) -> str:
        """POST the message and return the reply body."""
        conn = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        try:
            conn.request("POST", self._path, body=text.encode("utf-8"),
                         headers={"Content-Type": "text/acl", "Accept": "text/acl"})
            response = conn.getresponse()
            raw = response.read(MAX_REPLY + 1)
            if len(raw) > MAX_REPLY:
                raise TransportError("error", f"a reply over {MAX_REPLY} bytes: refused unread")
            body = raw.decode("utf-8", errors="replace")
        except TimeoutError as exc:
            raise TransportError("timeout", f"no answer: {exc}") from None
        except OSError as exc:
            raise TransportError("connection", f"{type(exc).__name__}: {exc}") from None
        finally:
            conn.close()
        if response.status != 200:
            raise TransportError("error", f"HTTP {response.status}: {body.strip()}")
        return body


class LocalTransport:
    """A built-in player in this process, spoken to with the same messages."""

    def __init__(self, player: Player, address: str):
        self.player, self.address = player, address

    def send(self, text: str, timeout: float) -> str:
        """Hand the message to the player and return its reply."""
        reply = self.player.handle(text)
        if reply.status != 200:
            raise TransportError("error", f"status {reply.status}: {reply.body}")
        return reply.body


def transport_for(address: str, seed: int | None = None):
    """The transport for `http://...` or `builtin:STRATEGY`."""
    if address.startswith("builtin:"):
        strategy = address.split(":", 1)[1]
        if strategy not in STRATEGIES:
            raise GgpError(f"unknown built-in player {address!r}; use builtin:" + "|".join(STRATEGIES))
        return LocalTransport(Player(strategy, name=f"builtin_{strategy}", seed=seed), address)
    return HttpTransport(address)


def load_game(path: str | Path, gdl: int | None = None, overrides: dict | None = None) -> tuple[Description, int]:
    """The description to play and its GDL version (KIF files: as written unless `gdl` says;
    `overrides` sets a RECYCLE game's declared variables, as `translate --set` does)."""
    try:
        if is_kif(path):
            desc = load_description(path)
            return desc, gdl or detect_gdl_version(desc)
        return load_description(path, version=gdl or 2, overrides=overrides), gdl or 2
    except GdlError as exc:
        raise GgpError(str(exc)) from None


def describer_for(path: str | Path, gdl: int = 2, overrides: dict | None = None):
    """How a match record shows the moves of a game file: a RECYCLE game's as the options they
    choose (its translation made again, for the labels of its choices); None for KIF, whose
    record names cards from the description's `card_att` facts alone."""
    from ..filekinds import is_deckbuild
    if is_kif(path) or is_deckbuild(path):   # a deck-building game's move terms name their cards
        return None
    from ..moves import TranslationMoves
    from ..frontends import load_game
    from ..sim.fold import fold_setup
    from ..translators.recycle_gdl import Translation
    # the game load_description translated: its setup folded
    return TranslationMoves(Translation(fold_setup(load_game(path).game, overrides), gdl, overrides))


class Match:
    """One match: `Match(desc, players, ...).run()` returns the record; `.transcript` the messages."""

    def __init__(self, desc: Description, players: dict[str, str], *, gdl: int = 2,
                 startclock: float = 10, playclock: float = 5, seed: int | None = None,
                 match_id: str | None = None, upper: bool = False, slack: float = 0.5,
                 max_steps: int = 10_000, game: str = "game", machine: ClingoMachine | None = None,
                 describer=None):
        # `machine` lets a caller that runs many matches of one game ground it once; `describer`
        # (`describer_for`) shows the moves in the record's `moves_shown`.
        try:
            self.machine = machine or ClingoMachine(desc, percepts=gdl == 2)
        except GdlError as exc:
            raise GgpError(f"cannot play {game}: {exc}") from None
        self.desc, self.gdl, self.game = desc, gdl, game
        self.cards = describer or GdlCards(desc)   # for `moves_shown`: cards by their attributes
        self.startclock, self.playclock, self.slack = startclock, playclock, slack
        self.seed, self.upper, self.max_steps = seed, upper, max_steps
        self.rng = random.Random(seed)
        self.match_id = (match_id or f"ggpbridge_{secrets.token_hex(4)}").lower()
        self.roles = self.machine.roles()
        names = {symbol_kif(r): r for r in self.roles}
        unknown = sorted(set(players) - set(names))
        if unknown:
            raise GgpError(f"no role {', '.join(unknown)} in {game}; the roles are {', '.join(names)}")
        self.transports = {names[role]: transport_for(address, None if seed is None else seed + i)
                           for i, (role, address) in enumerate(sorted(players.items()))}
        self.transcript: list[dict] = []

    # -- sending ----------------------------------------------------------

    def _exchange(self, pool, messages: dict, clock: float) -> dict:
        """Send each role its message at once; role -> (reply or None, seconds, error or None)."""
        limit = clock + self.slack

        def timed(transport, text):
            began = time.monotonic()
            return transport.send(text, limit + 1.0), time.monotonic() - began

        texts = {role: (print_message(m).upper() if self.upper else print_message(m))
                 for role, m in messages.items()}
        futures = {role: pool.submit(timed, self.transports[role], text) for role, text in texts.items()}
        wait(futures.values(), timeout=limit)
        out = {}
        for role in self.roles:  # role order: the record does not depend on thread timing
            if role not in futures:
                continue
            future = futures[role]
            if not future.done():
                out[role] = (None, limit, ("timeout", f"no answer within {limit:g} s"))
            elif future.exception() is not None:
                exc = future.exception()
                out[role] = (None, None, (getattr(exc, "kind", "error"), str(exc)))
            else:
                reply, seconds = future.result()
                late = seconds > limit
                out[role] = (None if late else reply, seconds,
                             ("timeout", f"answered after {seconds:.3f} s, limit {limit:g} s") if late else None)
            self.transcript.append({"role": symbol_kif(role), "message": texts[role],
                                    "reply": out[role][0] if out[role][2] is None else None})
        return out

    # -- the match --------------------------------------------------------

    def run(self) -> dict:
        """Play the match to the end and return its record."""
        try:
            return self._run()
        except GdlError as exc:  # the rules failed the manager itself: no record to give
            raise GgpError(f"{self.game}: {exc}") from None

    def _run(self) -> dict:
        machine, roles = self.machine, self.roles
        errors: list[dict] = []
        timings: dict = {"start": {}, "turns": [], "stop": {}}
        moves_log: list[list[str]] = []
        shown_log: list[list[str]] = []
        percepts_log = {symbol_kif(r): [] for r in roles} if self.gdl == 2 else {}
        began = time.monotonic()
        rules = " ".join(to_kif(rule) for rule in self.desc.rules)
        with ThreadPoolExecutor(max_workers=max(4, 2 * len(self.transports))) as pool:
            answers = self._exchange(pool, {
                role: Start(self.match_id, symbol_kif(role), rules, self.startclock, self.playclock)
                for role in self.transports}, self.startclock)
            for role, (reply, seconds, error) in answers.items():
                timings["start"][symbol_kif(role)] = _round(seconds)
                self._expect(errors, "start", None, role, reply, error, "ready")
            state, turn = machine.initial_state(), 0
            joint: dict | None = None
            seen: dict = {}
            aborted = False
            while not machine.is_terminal(state):
                if turn >= self.max_steps:
                    aborted = True  # a step cap ends the match unfinished, as ABORT does
                    break
                answers = self._exchange(pool, {role: self._message(Play, role, turn, joint, seen)
                                                for role in self.transports}, self.playclock)
                joint = {}
                for role in roles:
                    legal = machine.legal_moves(state, role)
                    if role not in answers:
                        joint[role] = self.rng.choice(legal)
                        continue
                    reply, seconds, error = answers[role]
                    move, problem = self._read_move(reply, error, legal)
                    if problem is not None:
                        move = self.rng.choice(legal)
                        errors.append({"phase": "play", "turn": turn, "role": symbol_kif(role),
                                       "kind": problem[0], "detail": problem[1], "reply": reply,
                                       "replacement": symbol_kif(move)})
                    joint[role] = move
                timings["turns"].append({symbol_kif(r): _round(answers[r][1]) for r in answers})
                seen = machine.sees(state, joint) if self.gdl == 2 else {}
                for role in roles if self.gdl == 2 else ():
                    percepts_log[symbol_kif(role)].append(sorted(map(symbol_kif, seen.get(role, ()))))
                moves_log.append([symbol_kif(joint[r]) for r in roles])
                if self.cards.names:   # the record has `moves_shown` only then
                    shown_log.append([self.cards.move_text(m, state) for m in moves_log[-1]])
                state = machine.next_state(state, joint)
                turn += 1
            if aborted:
                answers = self._exchange(pool, {role: Abort(self.match_id) for role in self.transports},
                                         self.playclock)
            else:
                answers = self._exchange(pool, {role: self._message(Stop, role, turn, joint, seen)
                                                for role in self.transports}, self.playclock)
            for role, (reply, seconds, error) in answers.items():
                timings["stop"][symbol_kif(role)] = _round(seconds)
                self._expect(errors, "abort" if aborted else "stop", turn, role, reply, error,
                             "aborted" if aborted else "done")
        goals = {} if aborted else machine.goals(state)
        timings["total"] = _round(time.monotonic() - began)
        return {
            "format": RECORD_FORMAT, "match_id": self.match_id, "game": self.game, "gdl": self.gdl,
            "roles": [symbol_kif(r) for r in roles],
            "players": {symbol_kif(r): (self.transports[r].address if r in self.transports else "manager")
                        for r in roles},
            "startclock": self.startclock, "playclock": self.playclock, "seed": self.seed,
            "steps": len(moves_log), "aborted": aborted, "moves": moves_log, "percepts": percepts_log, "errors": errors,
            **({"moves_shown": shown_log} if self.cards.names else {}),
            "goals": {symbol_kif(r): goals.get(r, 0) for r in roles} if not aborted else {},
            "timings": timings,
        }

    def _message(self, kind, role, turn: int, joint: dict | None, seen: dict):
        if self.gdl == 1:
            moves = None if joint is None else tuple(symbol_term(joint[r]) for r in self.roles)
            return kind(self.match_id, moves=moves)
        if joint is None:
            return kind(self.match_id, turn=turn)
        percepts = tuple(symbol_term(p) for p in sorted(seen.get(role, ())))
        return kind(self.match_id, turn=turn, last_move=symbol_term(joint[role]), percepts=percepts)

    @staticmethod
    def _read_move(reply, error, legal):
        """(move, None) or (None, (kind, detail))."""
        if error is not None:
            return None, error
        if reply.strip().lower() == "busy":
            return None, ("busy", "the player answered busy: it does not know this match (restarted?)")
        try:
            move = term_symbol(parse_move_reply(reply))
        except (ProtocolError, GdlError) as exc:
            return None, ("unparsable", str(exc))
        if move not in legal:
            return None, ("illegal", f"{symbol_kif(move)} is not legal; legal: "
                          + " ".join(map(symbol_kif, legal)))
        return move, None

    @staticmethod
    def _expect(errors, phase, turn, role, reply, error, wanted):
        if error is None and reply is not None and reply.strip().lower() == wanted:
            return
        kind, detail = error or ("unexpected", f"expected {wanted}")
        errors.append({"phase": phase, "turn": turn, "role": symbol_kif(role), "kind": kind,
                       "detail": detail, "reply": reply})


def _round(seconds):
    return None if seconds is None else round(seconds, 4)
