"""delayq producer for Python: schedules tasks in delayq delay queues with core's own Lua scripts.

>>> from datetime import timedelta
>>> from delayq import DelayQueue
>>> with DelayQueue.connect("redis://localhost:6379", queue="orders", shards=16) as orders:
...     orders.enqueue("order-8812", delay=timedelta(minutes=30), payload='{"action":"cancel-if-unpaid"}')

``delayq.aio.AsyncDelayQueue`` is the asyncio twin.
"""
from .calendar import Calendar, after_business_days, roll_forward
from .client import DelayQueue
from .errors import (DelayQueueException, InvalidInputException, ProtocolVersionMismatchException,
                     ReplicaAckException, ShardCountMismatchException)
from .model import (CancelResult, DuplicatePolicy, EnqueueResult, EnqueueStatus, Priority, QueueStats,
                    RescheduleResult, RescheduleStatus, ShardStats, Task, TaskCompletion, TaskInfo, TaskProgress, TaskRecord, TaskState)
from .layout import Layout, LayoutChangedException
from .protocol import PROTOCOL_VERSION, MalformedRecordException

__all__ = [
    "DelayQueue", "DelayQueueException", "InvalidInputException", "ProtocolVersionMismatchException",
    "ReplicaAckException", "ShardCountMismatchException", "MalformedRecordException", "CancelResult",
    "DuplicatePolicy", "EnqueueResult", "EnqueueStatus", "Priority", "QueueStats", "RescheduleResult",
    "RescheduleStatus", "ShardStats", "Task", "TaskCompletion", "TaskInfo", "TaskProgress", "TaskRecord", "TaskState", "PROTOCOL_VERSION",
    "Layout", "LayoutChangedException",
    "Calendar", "after_business_days", "roll_forward",
]
__version__ = "0.1.0"
