#!/usr/bin/env python3
"""Generates the botocore oracle fixtures of the oracle tests (`tests/retry/oracle/`, `src/retry/adaptive/tests/botocore_oracle.rs`).

    python3 -m venv /tmp/b143 && /tmp/b143/bin/pip install 'botocore>=1.43,<1.44'
    python3 -m venv /tmp/b144 && /tmp/b144/bin/pip install botocore==1.44.8
    /tmp/b143/bin/python waiter-runtime/tests/support/botocore/gen_botocore_oracle.py
    /tmp/b144/bin/python waiter-runtime/tests/support/botocore/gen_botocore_oracle.py

With botocore 1.43 (standard retry behavior 2.0: `NEW_RETRIES_ENABLED` false, its default) it
writes `botocore_standard_2_0.json` and `botocore_adaptive.json` (the adaptive classes are the
same in 1.44); with botocore 1.44 (retry behavior 2.1, always on) `botocore_standard.json`.
Both runs are deterministic (fixed seeds), and each leaves the other's files alone.

# botocore 1.44: `botocore_standard.json`, retry behavior 2.1

* `constants`: botocore's defaults (max attempts, bases, the DynamoDB preset, costs).
* `quota`: sequences of calls through botocore's own `RetryHandler.needs_retry` (the handler
  `register_retry_handler` builds: `StandardRetryConditions`, `RetryQuotaChecker` with the
  `ThrottlingErrorDetector`, `ExponentialBackoff` with the service's bases) and
  `release_retry_quota`, one quota (500 tokens) per sequence. `service` is `example`,
  `dynamodb` (its preset: 4 attempts unless `max_attempts` is given, 25 ms transient base) or
  `sqs` (every call is `ReceiveMessage`, a long-polling operation). The random factor is 1:
  every delay is its bound, which our replay without jitter must reproduce exactly. Per attempt
  `[outcome, x-amz-retry-after or null, retried, available capacity after, delay or null]`;
  outcomes: `S` 200, `E` 503, `T` 400 `ThrottlingException`, `O` read timeout, `C` connection
  error, `X` 400 `ValidationException` (not retryable). The delay of the last attempt of a
  call is the long-polling backoff botocore slept before returning (null if none).
* `backoff`: `ExponentialBackoff.delay_amount` per kind, service, attempt and random factor:
  `[kind, service, attempt, random, delay]`.
* `retry_after`: the same with an `x-amz-retry-after` header, valid or not:
  `[kind, attempt, random, header, delay]`.
* `classify`: as for 1.43 below, through 1.44's classes.

# botocore 1.43

* `botocore_standard_2_0.json`: standard mode.
  - `quota`: sequences of calls sharing one `RetryQuota` (500 tokens), each call a list of
    attempt outcomes (`S` success, `E` transient 503 response, `T` throttling response,
    `O` read timeout). Every attempt goes through botocore's `StandardRetryConditions`
    (max attempts + retryable?), `RetryQuotaChecker.acquire_retry_quota` (5 a retry, 10 after a
    timeout) and, on a 2xx, `release_retry_quota` (1 back after a first-try success, else what
    the last retry took). Per attempt: `[outcome, retried, available capacity after]`.
  - `backoff`: `ExponentialBackoff.delay_amount` per attempt with the random factor fixed:
    `[attempt, random, delay]`; `random` close to 1 gives the bound.
  - `connection_cost`: what a retry after a (non-timeout) connection error costs.
  - `classify`: how botocore's standard mode treats one failed first attempt:
    `[code or null, status or null, exception or null, retryable, throttling, cost]`
    (`StandardRetryConditions`, `ThrottlingErrorDetector`'s fixed codes, `RetryQuotaChecker`).
* `botocore_adaptive.json`: adaptive mode, on a fake clock.
  - `cubic`: `CubicCalculator(w0, t0)` driven by `success_received(t)` / `error_received(rate, t)`;
    per step `[op, t, rate_or_null, returned, w_max, k, last_fail]`.
  - `clocker`: `RateClocker` started at `t0`; per step `[t, measured rate]`.
  - `bucket`: `TokenBucket(max_rate=r0)` built at `t0`, driven by `max_rate = r` (`R`) and
    non-blocking `acquire` (`A`); per step `[op, t, rate_or_ok, fill rate, max capacity,
    tokens, seconds until a token (0 if taken)]`.
  - `limiter`: botocore's whole `ClientRateLimiter` (as `adaptive.register_retry_handler`
    builds it: `TokenBucket(max_rate=1)`, `CubicCalculator(0, t0)`, `RateClocker`) behind a
    simulated service that throttles above a capacity. One request at a time: planned at
    `planned`, sent at `send` once a token is there (botocore's blocking acquire, replayed on the
    fake clock: wait `_sleep_amount`, plus 1 us so the token is there whatever the rounding),
    answered at `resp`. Per step `[planned, send, resp, throttled, measured, fill rate, max
    capacity, tokens, w_max, k, last_fail, enabled]`; `planned` and `send` are null while the
    limiter is off (botocore does not acquire then).
    `warm` sequences have no throttle before our transmit rate is first measured (a response in
    a later half-second bucket than the first response's), nor before botocore's token bucket
    has been full at a response a second or more after that: from the first measurement on our
    state must equal botocore's step by step, the tokens from the first response at which both
    buckets are full (what a bucket holds before the first throttle, when it is not used, is
    where the SDKs differ among themselves, and our cold start too). `cold` sequences have a
    throttle before that first measurement: there our documented cold-start deviation applies
    (see the `retry::adaptive` module docs).
  - `limiter_sdk_cold`: the same simulation with nothing held back at the start: throttled above
    the capacity, 1 % at random and a third of the responses of the first half second. For
    `ColdStart::Sdk`, compared from the first response on.

Random sequences come from fixed seeds: the output is the same on every run.
"""

import json
import math
import os
import random
from types import SimpleNamespace

from botocore.exceptions import ConnectionError as BotoConnectionError
from botocore.exceptions import ConnectTimeoutError, ReadTimeoutError
from botocore.retries import adaptive, bucket, quota, standard, throttling
from botocore.exceptions import CapacityNotAvailableError

HERE = os.path.dirname(os.path.abspath(__file__))


def dump(name, value):
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        json.dump(value, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


# ---------------------------------------------------------------------------------- standard


class Resp:
    def __init__(self, status):
        self.status_code = status
        self.headers = {}


def context_for(outcome, attempt, request_context):
    parsed, http, exc = None, None, None
    if outcome == "S":
        http = Resp(200)
        parsed = {"ResponseMetadata": {"HTTPStatusCode": 200}}
    elif outcome == "E":
        http = Resp(503)
        parsed = {"Error": {"Code": "ServiceUnavailable"}, "ResponseMetadata": {"HTTPStatusCode": 503}}
    elif outcome == "T":
        http = Resp(400)
        parsed = {"Error": {"Code": "ThrottlingException"}, "ResponseMetadata": {"HTTPStatusCode": 400}}
    elif outcome == "O":
        exc = ReadTimeoutError(endpoint_url="https://example.com")
    elif outcome == "C":
        exc = BotoConnectionError(error="connection reset")
    return standard.RetryContext(
        attempt_number=attempt,
        operation_model=None,
        parsed_response=parsed,
        http_response=http,
        caught_exception=exc,
        request_context=request_context,
    )


def gen_quota(rng, seq_count, calls):
    out = []
    for _ in range(seq_count):
        max_attempts = rng.choice([1, 2, 3, 3, 4, 5, 8])
        p_fail = rng.choice([0.2, 0.5, 0.7, 0.9])
        weights = [rng.random() for _ in range(3)]
        q = quota.RetryQuota()
        checker = standard.RetryQuotaChecker(q)
        conditions = standard.StandardRetryConditions(max_attempts=max_attempts)
        seq = []
        for _ in range(calls):
            request_context = {}
            call = []
            attempt = 1
            while True:
                if rng.random() < p_fail:
                    outcome = rng.choices(["E", "T", "O"], weights)[0]
                else:
                    outcome = "S"
                ctx = context_for(outcome, attempt, request_context)
                retried = False
                if outcome == "S":
                    checker.release_retry_quota(request_context, ctx.http_response)
                elif conditions.is_retryable(ctx) and checker.acquire_retry_quota(ctx):
                    retried = True
                call.append([outcome, retried, q.available_capacity])
                if not retried:
                    break
                attempt += 1
            seq.append(call)
        out.append({"max_attempts": max_attempts, "calls": seq})
    return out


def gen_backoff(rng):
    out = []
    for attempt in range(1, 13):
        for r in [0.0, 0.999999, rng.random(), rng.random(), rng.random()]:
            ctx = standard.RetryContext(attempt_number=attempt)
            delay = standard.ExponentialBackoff(random=lambda r=r: r).delay_amount(ctx)
            out.append([attempt, r, delay])
    return out


def connection_cost():
    q = quota.RetryQuota()
    checker = standard.RetryQuotaChecker(q)
    ctx = context_for("C", 1, {})
    assert standard.StandardRetryConditions().is_retryable(ctx)
    assert checker.acquire_retry_quota(ctx)
    return 500 - q.available_capacity


THROTTLE_STATUS = {
    "RequestThrottled": 403,
    "EC2ThrottledException": 502,
    "RequestLimitExceeded": 503,
    "SlowDown": 503,
    "BandwidthLimitExceeded": 509,
}


def gen_classify():
    cases = []
    for code in standard.ThrottledRetryableChecker._THROTTLED_ERROR_CODES:
        cases.append((code, 400, None))
        if code in THROTTLE_STATUS:
            cases.append((code, THROTTLE_STATUS[code], None))
    for code in standard.TransientRetryableChecker._TRANSIENT_ERROR_CODES:
        cases.append((code, 400, None))
    for status in [500, 502, 503, 504, 429, 400, 403, 404, 501, 509]:
        cases.append((None, status, None))
    for code, status in [("ValidationException", 400), ("AccessDenied", 403),
                         ("InternalError", 500), ("ServiceUnavailable", 503)]:
        cases.append((code, status, None))
    for exc in ["ReadTimeoutError", "ConnectTimeoutError", "ConnectionError"]:
        cases.append((None, None, exc))
    rows = []
    for code, status, exc in cases:
        http = Resp(status) if status is not None else None
        parsed = None
        if status is not None:
            parsed = {"ResponseMetadata": {"HTTPStatusCode": status}}
            if code is not None:
                parsed["Error"] = {"Code": code}
        caught = None
        if exc == "ReadTimeoutError":
            caught = ReadTimeoutError(endpoint_url="https://example.com")
        elif exc == "ConnectTimeoutError":
            caught = ConnectTimeoutError(endpoint_url="https://example.com")
        elif exc == "ConnectionError":
            caught = BotoConnectionError(error="connection reset")
        # An operation of no particular service, without modeled errors (botocore's special
        # cases are for STS and DynamoDB).
        op = SimpleNamespace(name="Op", error_shapes=[],
                             service_model=SimpleNamespace(service_name="example"))
        ctx = standard.RetryContext(
            attempt_number=1, operation_model=op, parsed_response=parsed,
            http_response=http, caught_exception=caught, request_context={},
        )
        retryable = standard.StandardRetryConditions(max_attempts=2).is_retryable(ctx)
        throttling = standard.ThrottledRetryableChecker().is_retryable(ctx)
        q = quota.RetryQuota()
        cost = None
        if retryable:
            assert standard.RetryQuotaChecker(q).acquire_retry_quota(ctx)
            cost = 500 - q.available_capacity
        rows.append([code, status, exc, retryable, throttling, cost])
    return rows


# ---------------------------------------------------------------------------------- adaptive


class FakeClock:
    def __init__(self, t):
        self.t = t

    def current_time(self):
        return self.t

    def sleep(self, amount):
        self.t += amount


class FixedThrottling:
    """Stands for `ThrottlingErrorDetector`: the step says whether the response throttled."""

    def is_throttling_error(self, throttled, **kwargs):
        return throttled


def start_time(rng):
    # Whole, half and arbitrary fractions of a second: the first rate bucket depends on them.
    return rng.choice([0.0, 100.0, 100.5, round(rng.uniform(0, 1000), 3), rng.uniform(0, 1000)])


def gen_cubic_seqs(rng, seq_count, steps):
    out = []
    for _ in range(seq_count):
        t0 = start_time(rng)
        t = t0
        w0 = rng.choice([0.0, rng.uniform(0, 5), rng.uniform(5, 500)])
        calc = throttling.CubicCalculator(starting_max_rate=w0, start_time=t0)
        rows = []
        for _ in range(steps):
            t += rng.expovariate(rng.choice([1.0, 10.0, 100.0]))
            if rng.random() < 0.2:
                rate = rng.choice([rng.uniform(0, 2), rng.uniform(0, 1000)])
                ret = calc.error_received(rate, t)
                op = "E"
            else:
                rate = None
                ret = calc.success_received(t)
                op = "S"
            p = calc.get_params_snapshot()
            rows.append([op, t, rate, ret, p.w_max, p.k, p.last_fail])
        out.append({"w0": w0, "t0": t0, "steps": rows})
    return out


def gen_clocker(rng, seq_count, steps):
    out = []
    for _ in range(seq_count):
        t0 = start_time(rng)
        clock = FakeClock(t0)
        clocker = adaptive.RateClocker(clock)
        rows = []
        rate = rng.choice([0.5, 5.0, 50.0, 500.0])
        for _ in range(steps):
            if rng.random() < 0.05:
                rate = rng.choice([0.5, 5.0, 50.0, 500.0])
            clock.t += rng.expovariate(rate)
            rows.append([clock.t, clocker.record()])
        out.append({"t0": t0, "steps": rows})
    return out


def gen_bucket(rng, seq_count, steps):
    out = []
    for _ in range(seq_count):
        t0 = start_time(rng)
        clock = FakeClock(t0)
        r0 = rng.choice([1.0, rng.uniform(0, 3), rng.uniform(0, 100)])
        b = bucket.TokenBucket(max_rate=r0, clock=clock)
        rows = []
        for _ in range(steps):
            clock.t += rng.expovariate(rng.choice([1.0, 10.0, 100.0]))
            if rng.random() < 0.3:
                rate = rng.choice([0.0, rng.uniform(0, 1), rng.uniform(0, 3), rng.uniform(0, 100)])
                b.max_rate = rate
                rows.append(["R", clock.t, rate, b.max_rate, b.max_capacity, b.available_capacity, 0.0])
            else:
                try:
                    b.acquire(block=False)
                    ok, wait = True, 0.0
                except CapacityNotAvailableError:
                    ok, wait = False, b._sleep_amount(1)
                rows.append(["A", clock.t, ok, b.max_rate, b.max_capacity, b.available_capacity, wait])
        out.append({"t0": t0, "r0": r0, "steps": rows})
    return out


def gen_limiter(rng, cold, steps):
    t0 = start_time(rng)
    clock = FakeClock(t0)
    limiter = adaptive.ClientRateLimiter(
        rate_adjustor=throttling.CubicCalculator(starting_max_rate=0, start_time=t0),
        rate_clocker=adaptive.RateClocker(clock),
        token_bucket=bucket.TokenBucket(max_rate=1, clock=clock),
        throttling_detector=FixedThrottling(),
        clock=clock,
    )
    capacity = rng.choice([2.0, 10.0, 30.0])  # requests/s the simulated service admits
    demand = capacity * rng.choice([1.5, 3.0, 6.0])  # requests/s the caller would send
    recent = []  # response times in the last second
    # Our transmit rate is measured once a response falls in a later half-second bucket than
    # the first response's (`TransmitRate::is_measured`).
    first_bucket = None
    measured = False
    thrown_cold = False
    measured_at = None
    warmed = False
    rows = []
    for i in range(steps):
        if rng.random() < 0.03:
            demand = capacity * rng.choice([0.3, 1.5, 3.0, 10.0])
        clock.t += rng.expovariate(demand)
        planned = clock.t
        send = None
        if limiter._enabled:
            while True:
                try:
                    limiter._token_bucket.acquire(block=False)
                    break
                except CapacityNotAvailableError:
                    clock.t += limiter._token_bucket._sleep_amount(1) + 1e-6
            send = clock.t
        clock.t += rng.uniform(0.0, 0.02)  # latency
        resp = clock.t
        bucket_of = math.floor(resp * 2) / 2
        if first_bucket is None:
            first_bucket = bucket_of
        elif bucket_of > first_bucket:
            measured = True
        recent = [t for t in recent if t > resp - 1.0] + [resp]
        throttled = len(recent) > capacity or rng.random() < 0.01
        if not measured:
            if cold and not thrown_cold and i >= 1:
                throttled = True
            if not cold:
                throttled = False
        elif not cold and not warmed:
            # Until the buckets have filled up after the first measurement: their tokens
            # before it are not the SDKs' algorithm (see the module's docs).
            throttled = False
        if throttled and not measured:
            thrown_cold = True
        limiter.on_receiving_response(throttled=throttled)
        if measured and measured_at is None:
            measured_at = resp
        b = limiter._token_bucket
        if (
            measured_at is not None
            and resp >= measured_at + 1.0
            and b.available_capacity == b.max_capacity
        ):
            warmed = True
        p = limiter._rate_adjustor.get_params_snapshot()
        b = limiter._token_bucket
        rows.append([
            None if send is None else planned,
            send,
            resp,
            throttled,
            limiter._rate_clocker.measured_rate,
            b.max_rate,
            b.max_capacity,
            b.available_capacity,
            p.w_max,
            p.k,
            p.last_fail,
            limiter._enabled,
        ])
    if thrown_cold != cold:
        return None  # measured before the second response: draw another
    if not cold and sum(row[3] for row in rows) < 3:
        return None  # (almost) no throttle after the warm-up: draw another
    return {"t0": t0, "cold": cold, "steps": rows}


# ------------------------------------------------------------------------ botocore 1.44 (2.1)


class Resp144:
    def __init__(self, status, retry_after=None):
        self.status_code = status
        self.headers = {} if retry_after is None else {"x-amz-retry-after": retry_after}


def response_for(outcome, header):
    """(response, caught_exception) as botocore's needs-retry event passes them."""
    if outcome == "S":
        return (Resp144(200), {"ResponseMetadata": {"HTTPStatusCode": 200}}), None
    if outcome == "E":
        return (Resp144(503, header), {"Error": {"Code": "ServiceUnavailable"},
                                       "ResponseMetadata": {"HTTPStatusCode": 503}}), None
    if outcome == "T":
        return (Resp144(400, header), {"Error": {"Code": "ThrottlingException"},
                                       "ResponseMetadata": {"HTTPStatusCode": 400}}), None
    if outcome == "X":
        return (Resp144(400), {"Error": {"Code": "ValidationException"},
                               "ResponseMetadata": {"HTTPStatusCode": 400}}), None
    if outcome == "O":
        return None, ReadTimeoutError(endpoint_url="https://example.com")
    if outcome == "C":
        return None, BotoConnectionError(error="connection reset")
    raise ValueError(outcome)


def random_header(rng):
    """An `x-amz-retry-after` value: mostly valid milliseconds, some that botocore ignores."""
    kind = rng.random()
    if kind < 0.55:
        return str(rng.choice([0, rng.randint(1, 200), rng.randint(200, 3000),
                               rng.randint(3000, 40000)]))
    if kind < 0.7:
        return rng.choice([" 250 ", "+40", "1_000", "-0", "007"])
    if kind < 0.85:
        return rng.choice(["-5", "-1000", "abc", "1.5", "", "5s", "0x10", "1e3", "_5", "5__0"])
    return rng.choice(["99999999999999999999", "1" + "0" * 308, "9" * 400])


def handler_for(service, max_attempts, sleeps):
    detector = standard.ThrottlingErrorDetector(standard.RetryEventAdapter())
    q = quota.RetryQuota()
    checker = standard.RetryQuotaChecker(q, detector)
    if max_attempts is None:
        max_attempts = standard._SERVICE_MAX_ATTEMPTS.get(service, standard.DEFAULT_MAX_ATTEMPTS)
    handler = standard.RetryHandler(
        retry_policy=standard.RetryPolicy(
            retry_checker=standard.StandardRetryConditions(max_attempts=max_attempts),
            retry_backoff=standard.ExponentialBackoff(
                service_name=service, throttling_detector=detector, random=lambda: 1.0),
        ),
        retry_event_adapter=standard.RetryEventAdapter(),
        retry_quota=checker,
        service_name=service,
        sleep=sleeps.append,
    )
    return handler, checker, q


def gen_quota_21(rng, seq_count, calls):
    out = []
    for n in range(seq_count):
        service = ["example", "example", "dynamodb", "sqs"][n % 4]
        max_attempts = rng.choice([None, None, 1, 2, 3, 4, 5, 8])
        p_fail = rng.choice([0.2, 0.5, 0.7, 0.9])
        p_header = rng.choice([0.0, 0.2, 0.6])
        weights = [rng.random() for _ in range(5)]
        sleeps = []
        handler, checker, q = handler_for(service, max_attempts, sleeps)
        op = SimpleNamespace(name="ReceiveMessage" if service == "sqs" else "Op", error_shapes=[],
                             service_model=SimpleNamespace(service_name=service))
        seq = []
        for _ in range(calls):
            request_context = {}
            call = []
            attempt = 1
            while True:
                if rng.random() < p_fail:
                    outcome = rng.choices(["E", "T", "O", "C", "X"], weights)[0]
                else:
                    outcome = "S"
                header = random_header(rng) if outcome in "ET" and rng.random() < p_header else None
                response, exc = response_for(outcome, header)
                del sleeps[:]
                delay = handler.needs_retry(
                    response=response, attempts=attempt, operation=op, caught_exception=exc,
                    request_dict={"context": request_context})
                retried = delay is not None and delay is not False
                if outcome == "S":
                    checker.release_retry_quota(request_context, response[0])
                if not retried:
                    assert len(sleeps) <= 1
                    delay = sleeps[0] if sleeps else None
                call.append([outcome, header, retried, q.available_capacity, delay])
                if not retried:
                    break
                attempt += 1
            seq.append(call)
        out.append({"service": service, "max_attempts": max_attempts, "calls": seq})
    return out


def context_144(kind, attempt, header=None):
    if kind == "T":
        parsed = {"Error": {"Code": "ThrottlingException"}, "ResponseMetadata": {"HTTPStatusCode": 400}}
        http = Resp144(400, header)
    else:
        parsed = {"Error": {"Code": "ServiceUnavailable"}, "ResponseMetadata": {"HTTPStatusCode": 503}}
        http = Resp144(503, header)
    return standard.RetryContext(attempt_number=attempt, parsed_response=parsed, http_response=http)


def gen_backoff_21(rng):
    detector = standard.ThrottlingErrorDetector(standard.RetryEventAdapter())
    out = []
    for service in ["example", "dynamodb"]:
        for kind in ["T", "E"]:
            for attempt in range(1, 13):
                for r in [0.0, 0.999999, rng.random(), rng.random()]:
                    backoff = standard.ExponentialBackoff(
                        service_name=service, throttling_detector=detector, random=lambda r=r: r)
                    out.append([kind, service, attempt, r,
                                backoff.delay_amount(context_144(kind, attempt))])
    return out


def gen_retry_after_21(rng, count):
    detector = standard.ThrottlingErrorDetector(standard.RetryEventAdapter())
    out = []
    for _ in range(count):
        kind = rng.choice(["T", "E"])
        attempt = rng.randint(1, 8)
        r = rng.choice([0.0, rng.random(), rng.random(), 0.999999])
        header = random_header(rng)
        backoff = standard.ExponentialBackoff(throttling_detector=detector, random=lambda r=r: r)
        out.append([kind, attempt, r, header,
                    backoff.delay_amount(context_144(kind, attempt, header))])
    return out


def constants_21():
    b = standard.ExponentialBackoff
    return {
        "max_attempts": standard.DEFAULT_MAX_ATTEMPTS,
        "service_max_attempts": standard._SERVICE_MAX_ATTEMPTS,
        "throttling_base": b._DEFAULT_BACKOFF_CONFIG["throttling_base_scale"],
        "transient_base": b._DEFAULT_BACKOFF_CONFIG["non_throttling_base_scale"],
        "service_transient_base": {k: v["non_throttling_base_scale"]
                                   for k, v in b._SERVICE_BACKOFF_CONFIG.items()},
        "max_backoff": b._MAX_BACKOFF,
        "retry_after_max_additional": b._RETRY_AFTER_MAX_ADDITIONAL,
        "retry_cost": standard.RetryQuotaChecker._RETRY_COST,
        "throttling_retry_cost": standard.RetryQuotaChecker._THROTTLING_RETRY_COST,
        "no_retry_increment": standard.RetryQuotaChecker._NO_RETRY_INCREMENT,
        "capacity": quota.RetryQuota.INITIAL_CAPACITY,
        "long_polling": {k: sorted(v) for k, v in standard.RetryHandler._LONG_POLLING_OPERATIONS.items()},
    }


def gen_classify_21():
    detector = standard.ThrottlingErrorDetector(standard.RetryEventAdapter())
    cases = []
    for code in standard.ThrottledRetryableChecker._THROTTLED_ERROR_CODES:
        cases.append((code, 400, None))
    for code in standard.TransientRetryableChecker._TRANSIENT_ERROR_CODES:
        cases.append((code, 400, None))
    for status in [500, 502, 503, 504, 429, 400, 403, 404, 501, 509]:
        cases.append((None, status, None))
    for code, status in [("ValidationException", 400), ("AccessDenied", 403),
                         ("InternalError", 500), ("ServiceUnavailable", 503)]:
        cases.append((code, status, None))
    for exc in ["ReadTimeoutError", "ConnectTimeoutError", "ConnectionError"]:
        cases.append((None, None, exc))
    rows = []
    for code, status, exc in cases:
        http = Resp144(status) if status is not None else None
        parsed = None
        if status is not None:
            parsed = {"ResponseMetadata": {"HTTPStatusCode": status}}
            if code is not None:
                parsed["Error"] = {"Code": code}
        caught = {"ReadTimeoutError": lambda: ReadTimeoutError(endpoint_url="https://example.com"),
                  "ConnectTimeoutError": lambda: ConnectTimeoutError(endpoint_url="https://example.com"),
                  "ConnectionError": lambda: BotoConnectionError(error="connection reset"),
                  None: lambda: None}[exc]()
        op = SimpleNamespace(name="Op", error_shapes=[],
                             service_model=SimpleNamespace(service_name="example"))
        ctx = standard.RetryContext(
            attempt_number=1, operation_model=op, parsed_response=parsed,
            http_response=http, caught_exception=caught, request_context={},
        )
        retryable = standard.StandardRetryConditions(max_attempts=2).is_retryable(ctx)
        throttling = detector.is_throttling_error_from_context(ctx)
        q = quota.RetryQuota()
        cost = None
        if retryable:
            assert standard.RetryQuotaChecker(q, detector).acquire_retry_quota(ctx)
            cost = 500 - q.available_capacity
        rows.append([code, status, exc, retryable, throttling, cost])
    return rows


def gen_limiter_sdk_cold(rng, steps):
    """A cold client with no constraint on its first responses: throttled above the capacity,
    1 % at random, and a third of the responses in its first half second."""
    t0 = start_time(rng)
    clock = FakeClock(t0)
    limiter = adaptive.ClientRateLimiter(
        rate_adjustor=throttling.CubicCalculator(starting_max_rate=0, start_time=t0),
        rate_clocker=adaptive.RateClocker(clock),
        token_bucket=bucket.TokenBucket(max_rate=1, clock=clock),
        throttling_detector=FixedThrottling(),
        clock=clock,
    )
    capacity = rng.choice([2.0, 10.0, 30.0])
    demand = capacity * rng.choice([1.5, 3.0, 6.0])
    recent = []
    rows = []
    for _ in range(steps):
        if rng.random() < 0.03:
            demand = capacity * rng.choice([0.3, 1.5, 3.0, 10.0])
        clock.t += rng.expovariate(demand)
        planned = clock.t
        send = None
        if limiter._enabled:
            while True:
                try:
                    limiter._token_bucket.acquire(block=False)
                    break
                except CapacityNotAvailableError:
                    clock.t += limiter._token_bucket._sleep_amount(1) + 1e-6
            send = clock.t
        clock.t += rng.uniform(0.0, 0.02)
        resp = clock.t
        recent = [t for t in recent if t > resp - 1.0] + [resp]
        throttled = len(recent) > capacity or rng.random() < 0.01
        if resp - t0 < 0.5 and rng.random() < 0.33:
            throttled = True
        limiter.on_receiving_response(throttled=throttled)
        p = limiter._rate_adjustor.get_params_snapshot()
        b = limiter._token_bucket
        rows.append([
            None if send is None else planned, send, resp, throttled,
            limiter._rate_clocker.measured_rate, b.max_rate, b.max_capacity,
            b.available_capacity, p.w_max, p.k, p.last_fail, limiter._enabled,
        ])
    return {"t0": t0, "cold": True, "steps": rows}


def main_144():
    import botocore
    rng = random.Random(20261125)
    dump("botocore_standard.json", {
        "botocore": botocore.__version__,
        "constants": constants_21(),
        "quota": gen_quota_21(rng, 48, 60),
        "backoff": gen_backoff_21(rng),
        "retry_after": gen_retry_after_21(rng, 600),
        "classify": gen_classify_21(),
    })


def main():
    import botocore
    if tuple(int(p) for p in botocore.__version__.split(".")[:2]) >= (1, 44):
        return main_144()
    rng = random.Random(20261123)
    dump("botocore_standard_2_0.json", {
        "botocore": "1.43",
        "quota": gen_quota(rng, 40, 60),
        "backoff": gen_backoff(rng),
        "connection_cost": connection_cost(),
        "classify": gen_classify(),
    })
    limiter = []
    for cold, count, steps in [(False, 30, 220), (True, 12, 200)]:
        while count:
            seq = gen_limiter(rng, cold, steps)
            if seq is not None:
                limiter.append(seq)
                count -= 1
    dump("botocore_adaptive.json", {
        "botocore": "1.43",
        "cubic": gen_cubic_seqs(rng, 30, 60),
        "clocker": gen_clocker(rng, 30, 150),
        "bucket": gen_bucket(rng, 30, 100),
        "limiter": limiter,
        # For `ColdStart::Sdk` (drawn last: the keys above are unchanged by it).
        "limiter_sdk_cold": [gen_limiter_sdk_cold(rng, 150) for _ in range(24)],
    })


if __name__ == "__main__":
    main()
