"""Fixed UTC windows (minute and day) per API key, a ban for keys that keep
hammering after 429, and a per-address limit on requests without a valid key."""
import math
import threading
from dataclasses import dataclass

MINUTE = 60
DAY = 86400

# A key refused this many times within one UTC minute is banned (ignoring Retry-After).
BAN_AFTER_REFUSALS = 50
BAN_SECONDS = 300
# Requests without a valid key, per client address and UTC minute.
ANONYMOUS_PER_MINUTE = 600


@dataclass
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset: int
    code: str = ""
    retry_after: int = 0
    window: str = ""  # "minute" or "day": the window described / exhausted

    def headers(self):
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }


@dataclass
class _KeyState:
    minute_id: int = -1
    minute_count: int = 0
    day_id: int = -1
    day_count: int = 0
    refusal_minute_id: int = -1
    refusals: int = 0
    banned_until: float = 0.0


def _seconds_until(moment, now):
    return max(1, math.ceil(moment - now))


class RateLimiter:
    def __init__(self, ban_after=BAN_AFTER_REFUSALS, ban_seconds=BAN_SECONDS,
                 anonymous_per_minute=ANONYMOUS_PER_MINUTE):
        self.ban_after = ban_after
        self.ban_seconds = ban_seconds
        self.anonymous_per_minute = anonymous_per_minute
        self._keys = {}
        self._anonymous = {}  # address -> [minute_id, count]
        self._lock = threading.Lock()

    def check_key(self, api_key, now):
        """Admit (and count) or refuse one request made with a valid key."""
        minute_id, day_id = int(now // MINUTE), int(now // DAY)
        minute_reset, day_reset = (minute_id + 1) * MINUTE, (day_id + 1) * DAY
        with self._lock:
            st = self._keys.setdefault(api_key.key, _KeyState())
            if st.minute_id != minute_id:
                st.minute_id, st.minute_count = minute_id, 0
            if st.day_id != day_id:
                st.day_id, st.day_count = day_id, 0

            def describe(**extra):
                m_left = max(api_key.per_minute - st.minute_count, 0)
                d_left = max(api_key.per_day - st.day_count, 0)
                if m_left < d_left:
                    return Decision(limit=api_key.per_minute, remaining=m_left,
                                    reset=minute_reset, window="minute", **extra)
                return Decision(limit=api_key.per_day, remaining=d_left,
                                reset=day_reset, window="day", **extra)

            if st.banned_until > now:
                return describe(allowed=False, code="temporarily_banned",
                                retry_after=_seconds_until(st.banned_until, now))

            minute_full = st.minute_count >= api_key.per_minute
            day_full = st.day_count >= api_key.per_day
            if minute_full or day_full:
                if st.refusal_minute_id != minute_id:
                    st.refusal_minute_id, st.refusals = minute_id, 0
                st.refusals += 1
                if st.refusals > self.ban_after:
                    st.banned_until = now + self.ban_seconds
                    return describe(allowed=False, code="temporarily_banned",
                                    retry_after=_seconds_until(st.banned_until, now))
                wait_until = max(minute_reset if minute_full else 0, day_reset if day_full else 0)
                decision = describe(allowed=False, code="rate_limit_exceeded",
                                    retry_after=_seconds_until(wait_until, now))
                decision.window = "day" if day_full else "minute"
                return decision

            st.minute_count += 1
            st.day_count += 1
            return describe(allowed=True)

    def check_anonymous(self, address, now):
        """Admit (and count) or refuse one request without a valid key, per client address."""
        minute_id = int(now // MINUTE)
        reset = (minute_id + 1) * MINUTE
        limit = self.anonymous_per_minute
        with self._lock:
            if len(self._anonymous) > 10000:  # forget finished windows
                self._anonymous = {a: s for a, s in self._anonymous.items() if s[0] == minute_id}
            state = self._anonymous.setdefault(address, [minute_id, 0])
            if state[0] != minute_id:
                state[0], state[1] = minute_id, 0
            if state[1] >= limit:
                return Decision(allowed=False, limit=limit, remaining=0, reset=reset,
                                code="rate_limit_exceeded", retry_after=_seconds_until(reset, now),
                                window="minute")
            state[1] += 1
            return Decision(allowed=True, limit=limit, remaining=limit - state[1], reset=reset,
                            window="minute")
