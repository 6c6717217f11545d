"""The transport-agnostic table service. See README.md beside this file."""

from bot.service.errors import REFUSAL_CODES, Refused
from bot.service.notifications import FileSpec, MemoryNotifier, Notification, Notifier
from bot.service.replay import ReplayReport, verify_replay
from bot.service.scheduler import DeadlineScheduler, job_id
from bot.service.service import StoreCorrupt, TableService
from bot.service.settings import Actor, TableSettings
from bot.service.values import (
    ActResult,
    BootReport,
    LogEntry,
    Option,
    Prompt,
    SeatInfo,
    TableInfo,
)

__all__ = [
    "REFUSAL_CODES",
    "ActResult",
    "Actor",
    "BootReport",
    "DeadlineScheduler",
    "FileSpec",
    "LogEntry",
    "MemoryNotifier",
    "Notification",
    "Notifier",
    "Option",
    "Prompt",
    "Refused",
    "ReplayReport",
    "SeatInfo",
    "StoreCorrupt",
    "TableInfo",
    "TableService",
    "TableSettings",
    "job_id",
    "verify_replay",
]
