"""ORM tables: a session, its players, its entries (hands, events, draws) and
the corrections made to them.

Entries are never changed in place except for their ``status``: an undo marks
the entry ``undone``; an edit marks it ``replaced`` and adds a new entry at the
same ``position``. Every correction also gets a row in ``corrections``, so the
audit trail says who changed what and when.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    pass


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    variant: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    final: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # totals and uma at the end

    players: Mapped[list["PlayerRow"]] = relationship(back_populates="session", order_by="PlayerRow.seat_index",
                                                      cascade="all, delete-orphan")


class PlayerRow(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("session_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(1))
    seat_index: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))

    session: Mapped[SessionRow] = relationship(back_populates="players")


class EntryRow(Base):
    """One recorded hand, event or exhaustive draw."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("session_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)  # order of recording, 1, 2, ...
    position: Mapped[int] = mapped_column(Integer)  # order of play; an edit keeps the position
    kind: Mapped[str] = mapped_column(String(10))  # hand | event | draw
    name: Mapped[str] = mapped_column(String(40), default="")  # event name; "win" for a hand
    request: Mapped[dict] = mapped_column(JSON)  # what went to the engine (context included)
    context: Mapped[dict] = mapped_column(JSON, default=dict)  # the carried state it was recorded under
    outcome: Mapped[dict] = mapped_column(JSON, default=dict)  # extra facts for the state hooks (tenpai...)
    result: Mapped[dict] = mapped_column(JSON, default=dict)  # the engine's answer
    payments: Mapped[dict] = mapped_column(JSON, default=dict)  # seat -> signed int, sum 0
    photo: Mapped[str | None] = mapped_column(String(64), nullable=True)  # generated file name
    note: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(10), default="active")  # active | undone | replaced
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CorrectionRow(Base):
    __tablename__ = "corrections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(10))  # undo | edit
    entry_seq: Mapped[int] = mapped_column(Integer)
    new_entry_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
