//! Reading a server's pacing hint from response headers: when to retry, or not to.
//!
//! | header | value | sent by |
//! |---|---|---|
//! | `grpc-retry-pushback-ms` | milliseconds; negative or unreadable: do not retry (gRPC A6) | gRPC servers |
//! | `x-amz-retry-after` | milliseconds, read as botocore reads it | AWS services |
//! | `retry-after-ms`, `x-ms-retry-after-ms` | milliseconds | Azure services, OpenAI |
//! | `Retry-After` | delay-seconds or an HTTP-date (RFC 9110) | any HTTP server |
//! | `RateLimit` | the reset `t` of a policy whose remaining `r` is 0 (`"default";r=0;t=10`, the IETF draft since its 8th revision; `remaining=0, reset=10` in its 7th) | rate-limited APIs |
//! | `RateLimit-Remaining` + `RateLimit-Reset` | the reset, in seconds, when remaining is 0 (the draft's 6th revision and before) | rate-limited APIs |
//!
//! When several are present, the first of this table that reads wins: a protocol's own
//! hint over the generic ones, milliseconds over seconds, a delay over a quota's reset. A
//! hint that does not read, is negative, longer than a day ([`MAX_HINT`]: no server means
//! that for the retry of one request) or a date in the past is ignored, and the next one is
//! looked at; `x-amz-retry-after` alone keeps botocore's rules ([`parse_amz_retry_after`]),
//! which the retry oracle tests pin. The retrier bounds what it follows (retry behavior 2.1:
//! at most 5 s past its own delay; never past the call's deadline). `X-RateLimit-*` fields
//! are not read: their reset is a delay for some servers and a Unix time for others.
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use waiter_runtime::error_metadata::hint::{self, RetryHint};
//!
//! let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_770); // Sun, 06 Nov 1994 08:49:30 GMT
//! assert_eq!(hint::parse_retry_after("120", now), Some(Duration::from_secs(120)));
//! assert_eq!(hint::parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now), Some(Duration::from_secs(7)));
//! assert_eq!(hint::parse_amz_retry_after("1500"), Some(Duration::from_millis(1500)));
//!
//! let headers = [("Retry-After", "5".as_bytes()), ("x-amz-retry-after", "250".as_bytes())];
//! assert_eq!(hint::retry_after_from_headers(headers, now), Some(Duration::from_millis(250)));
//!
//! let headers = [("RateLimit", r#""default";r=0;t=12"#.as_bytes())];
//! assert_eq!(hint::retry_hint_from_headers(headers, now), Some(RetryHint::After(Duration::from_secs(12))));
//! let headers = [("grpc-retry-pushback-ms", "-1".as_bytes()), ("Retry-After", "5".as_bytes())];
//! assert_eq!(hint::retry_hint_from_headers(headers, now), Some(RetryHint::DoNotRetry));
//! ```

use std::time::{Duration, SystemTime};

/// The `Retry-After` header's name.
pub const RETRY_AFTER: &str = "retry-after";
/// The `x-amz-retry-after` header's name.
pub const X_AMZ_RETRY_AFTER: &str = "x-amz-retry-after";
/// The `retry-after-ms` header's name (Azure, OpenAI).
pub const RETRY_AFTER_MS: &str = "retry-after-ms";
/// The `x-ms-retry-after-ms` header's name (Azure).
pub const X_MS_RETRY_AFTER_MS: &str = "x-ms-retry-after-ms";
/// The `grpc-retry-pushback-ms` header's name (gRPC A6).
pub const GRPC_RETRY_PUSHBACK_MS: &str = "grpc-retry-pushback-ms";
/// The IETF draft's `RateLimit` header's name.
pub const RATELIMIT: &str = "ratelimit";
/// The `RateLimit-Remaining` header's name (the IETF draft's 6th revision and before).
pub const RATELIMIT_REMAINING: &str = "ratelimit-remaining";
/// The `RateLimit-Reset` header's name (the IETF draft's 6th revision and before).
pub const RATELIMIT_RESET: &str = "ratelimit-reset";

/// The longest hint taken: a longer one is absurd for the retry of one request, and ignored.
pub const MAX_HINT: Duration = Duration::from_secs(86_400);

/// What a server's headers say about retrying.
#[non_exhaustive]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RetryHint {
    /// Retry no sooner than this.
    After(Duration),
    /// Do not retry (gRPC's pushback, negative or unreadable).
    DoNotRetry,
}

/// `Some(hint)` if it is not absurd.
fn sensible(hint: Duration) -> Option<Duration> {
    (hint <= MAX_HINT).then_some(hint)
}

/// Parses a `Retry-After` value (RFC 9110): a number of seconds, or an HTTP-date, read
/// relative to `now`. `None` if it is neither, or a date in the past, or longer than
/// [`MAX_HINT`].
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return sensible(Duration::from_secs(value.parse().ok()?));
    }
    let at = parse_http_date(value)?;
    sensible(at.duration_since(now).ok()?)
}

/// Parses an `x-amz-retry-after` value: a whole number of milliseconds, read as botocore
/// reads it (Python's `int()`): surrounding whitespace, a sign and `_` between digits are
/// allowed. A negative value, anything else (`1.5`, `5s`, empty) and a value too large for a
/// float (over ~1.8e308) are ignored (`None`), as botocore ignores them; a merely absurd one
/// (years) saturates, and the retrier bounds it (retry behavior 2.1: at most 5 s past the
/// computed delay).
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::error_metadata::hint::parse_amz_retry_after;
///
/// assert_eq!(parse_amz_retry_after(" +1_500 "), Some(Duration::from_millis(1500)));
/// assert_eq!(parse_amz_retry_after("-0"), Some(Duration::ZERO));
/// for ignored in ["-5", "1.5", "5s", "", "_5", "5__0", "0x10"] {
///     assert_eq!(parse_amz_retry_after(ignored), None, "{ignored:?}");
/// }
/// ```
pub fn parse_amz_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    let (negative, digits) = match value.as_bytes().first()? {
        b'+' => (false, &value[1..]),
        b'-' => (true, &value[1..]),
        _ => (false, value),
    };
    // Digits, with single underscores between them.
    let bytes = digits.as_bytes();
    let well_formed = !bytes.is_empty()
        && bytes.first().is_some_and(u8::is_ascii_digit)
        && bytes.last().is_some_and(u8::is_ascii_digit)
        && bytes.iter().all(|b| b.is_ascii_digit() || *b == b'_')
        && !digits.contains("__");
    if !well_formed {
        return None;
    }
    let digits: String = digits.chars().filter(char::is_ascii_digit).collect();
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        return Some(Duration::ZERO);
    }
    if negative {
        return None;
    }
    // botocore divides by 1000.0: an int beyond a float's range raises and is ignored.
    let as_float: f64 = significant.parse().ok()?;
    if !as_float.is_finite() {
        return None;
    }
    Some(Duration::from_millis(
        significant.parse().unwrap_or(u64::MAX),
    ))
}

/// Parses a `retry-after-ms` or `x-ms-retry-after-ms` value: milliseconds, whole or
/// decimal (`1500`, `1500.5`), as Azure's SDKs read it. `None` if negative, not a number, or
/// longer than [`MAX_HINT`].
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::error_metadata::hint::parse_retry_after_ms;
///
/// assert_eq!(parse_retry_after_ms(" 1500 "), Some(Duration::from_millis(1500)));
/// assert_eq!(parse_retry_after_ms("2.5"), Some(Duration::from_micros(2500)));
/// for ignored in ["-1", "NaN", "inf", "1e12", "", "1,5", "5s"] {
///     assert_eq!(parse_retry_after_ms(ignored), None, "{ignored:?}");
/// }
/// ```
pub fn parse_retry_after_ms(value: &str) -> Option<Duration> {
    let value = value.trim();
    // Digits with at most one dot: no sign, exponent, `inf` or `NaN`, which `f64` would take.
    let mut dots = 0;
    let plain = !value.is_empty()
        && value.bytes().all(|b| {
            dots += usize::from(b == b'.');
            b.is_ascii_digit() || b == b'.'
        })
        && dots <= 1
        && value != ".";
    if !plain {
        return None;
    }
    let millis: f64 = value.parse().ok()?;
    sensible(Duration::try_from_secs_f64(millis / 1000.0).ok()?)
}

/// Parses a `grpc-retry-pushback-ms` value as gRPC A6 says: a non-negative whole number of
/// milliseconds is when to retry; a negative or unreadable one means do not retry (as does one
/// longer than [`MAX_HINT`]: the server wants no retry of this request).
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::error_metadata::hint::{RetryHint, parse_grpc_pushback};
///
/// assert_eq!(parse_grpc_pushback("250"), RetryHint::After(Duration::from_millis(250)));
/// assert_eq!(parse_grpc_pushback("-1"), RetryHint::DoNotRetry);
/// assert_eq!(parse_grpc_pushback("soon"), RetryHint::DoNotRetry);
/// ```
pub fn parse_grpc_pushback(value: &str) -> RetryHint {
    let value = value.trim();
    let millis = (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
        .then(|| value.parse::<u64>().ok())
        .flatten();
    match millis.and_then(|ms| sensible(Duration::from_millis(ms))) {
        Some(after) => RetryHint::After(after),
        None => RetryHint::DoNotRetry,
    }
}

/// Parses an IETF `RateLimit` value: the longest reset of the policies with nothing remaining,
/// `None` if some remains (or the value does not read). Both forms servers send: the draft's
/// List since its 8th revision (`"default";r=0;t=10, "daily";r=20;t=3600`: `r` remaining,
/// `t` seconds to the reset) and the Dictionary of its 7th (`limit=100, remaining=0, reset=10`).
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::error_metadata::hint::parse_ratelimit;
///
/// assert_eq!(parse_ratelimit(r#""default";r=0;t=10"#), Some(Duration::from_secs(10)));
/// assert_eq!(parse_ratelimit(r#""burst";r=0;t=2, "daily";r=0;t=30"#), Some(Duration::from_secs(30)));
/// assert_eq!(parse_ratelimit(r#""default";r=5;t=10"#), None);
/// assert_eq!(parse_ratelimit("limit=100, remaining=0, reset=7"), Some(Duration::from_secs(7)));
/// ```
pub fn parse_ratelimit(value: &str) -> Option<Duration> {
    let mut longest: Option<Duration> = None;
    // The 7th revision's Dictionary, whose members may come in any order.
    let (mut remaining, mut reset) = (None, None);
    for member in split_outside_quotes(value, b',') {
        let mut parts = split_outside_quotes(member, b';');
        let item = parts.next().unwrap_or_default().trim();
        if item.starts_with('"') || !item.contains('=') {
            // A policy (the List): its parameters `r` and `t`.
            let (mut r, mut t) = (None, None);
            for param in parts {
                match param.trim().split_once('=') {
                    Some(("r", v)) => r = integer(v),
                    Some(("t", v)) => t = integer(v),
                    _ => {}
                }
            }
            if let (Some(0), Some(t)) = (r, t.and_then(|t| sensible(Duration::from_secs(t)))) {
                longest = Some(longest.map_or(t, |l| l.max(t)));
            }
        } else {
            match item.split_once('=') {
                Some((key, v)) if key.trim() == "remaining" => remaining = integer(v),
                Some((key, v)) if key.trim() == "reset" => reset = integer(v),
                _ => {}
            }
        }
    }
    let reset = reset.and_then(|s| sensible(Duration::from_secs(s)));
    if let (Some(0), Some(reset)) = (remaining, reset) {
        longest = Some(longest.map_or(reset, |l| l.max(reset)));
    }
    longest
}

/// A non-negative integer (an sf-integer, or an HTTP field's digits).
fn integer(value: &str) -> Option<u64> {
    let value = value.trim();
    (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
        .then(|| value.parse().ok())
        .flatten()
}

/// `value` cut at each `sep` that is not inside a quoted string.
fn split_outside_quotes(value: &str, sep: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(value);
    std::iter::from_fn(move || {
        let s = rest?;
        let (mut quoted, mut escaped) = (false, false);
        for (i, b) in s.bytes().enumerate() {
            match b {
                _ if escaped => escaped = false,
                b'\\' if quoted => escaped = true,
                b'"' => quoted = !quoted,
                _ if b == sep && !quoted => {
                    rest = Some(&s[i + 1..]);
                    return Some(&s[..i]);
                }
                _ => {}
            }
        }
        rest = None;
        Some(s)
    })
}

/// The pacing hint in a response's headers (names compared case-insensitively), by the
/// precedence of the [module](self)'s table.
pub fn retry_hint_from_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    now: SystemTime,
) -> Option<RetryHint> {
    // The best hint so far and its rank (lower wins), and the older RateLimit fields.
    let mut best: Option<(u8, RetryHint)> = None;
    let (mut remaining_zero, mut reset) = (false, None);
    let mut offer = |rank: u8, hint: Option<RetryHint>| {
        if let Some(hint) = hint {
            if best.is_none_or(|(held, _)| rank < held) {
                best = Some((rank, hint));
            }
        }
    };
    for (name, value) in headers {
        let Ok(value) = std::str::from_utf8(value) else {
            // Not text: a gRPC pushback that cannot be read still says "do not retry".
            if name.eq_ignore_ascii_case(GRPC_RETRY_PUSHBACK_MS) {
                offer(0, Some(RetryHint::DoNotRetry));
            }
            continue;
        };
        let after = |d: Option<Duration>| d.map(RetryHint::After);
        if name.eq_ignore_ascii_case(GRPC_RETRY_PUSHBACK_MS) {
            offer(0, Some(parse_grpc_pushback(value)));
        } else if name.eq_ignore_ascii_case(X_AMZ_RETRY_AFTER) {
            offer(1, after(parse_amz_retry_after(value)));
        } else if name.eq_ignore_ascii_case(RETRY_AFTER_MS) {
            offer(2, after(parse_retry_after_ms(value)));
        } else if name.eq_ignore_ascii_case(X_MS_RETRY_AFTER_MS) {
            offer(3, after(parse_retry_after_ms(value)));
        } else if name.eq_ignore_ascii_case(RETRY_AFTER) {
            offer(4, after(parse_retry_after(value, now)));
        } else if name.eq_ignore_ascii_case(RATELIMIT) {
            offer(5, after(parse_ratelimit(value)));
        } else if name.eq_ignore_ascii_case(RATELIMIT_REMAINING) {
            remaining_zero |= integer(value) == Some(0);
        } else if name.eq_ignore_ascii_case(RATELIMIT_RESET) {
            reset = integer(value).and_then(|s| sensible(Duration::from_secs(s)));
        }
    }
    if remaining_zero {
        offer(6, reset.map(RetryHint::After));
    }
    best.map(|(_, hint)| hint)
}

/// The retry-after hint in a response's headers: [`retry_hint_from_headers`]'s delay (`None`
/// when the hint is not to retry).
pub fn retry_after_from_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    now: SystemTime,
) -> Option<Duration> {
    match retry_hint_from_headers(headers, now)? {
        RetryHint::After(after) => Some(after),
        RetryHint::DoNotRetry => None,
    }
}

/// Parses the three HTTP-date formats of RFC 9110 section 5.6.7: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and
/// asctime (`Sun Nov  6 08:49:37 1994`).
fn parse_http_date(value: &str) -> Option<SystemTime> {
    let parts: Vec<&str> = value.split_ascii_whitespace().collect();
    let (day, month, year, time) = match parts.as_slice() {
        // IMF-fixdate
        [wd, day, month, year, time, "GMT"]
            if wd.ends_with(',') && weekday(&wd[..wd.len() - 1], false) =>
        {
            (
                day.parse().ok()?,
                month_number(month)?,
                year_4(year)?,
                *time,
            )
        }
        // RFC 850
        [wd, date, time, "GMT"] if wd.ends_with(',') && weekday(&wd[..wd.len() - 1], true) => {
            let mut it = date.split('-');
            let (day, month, year) = (it.next()?, it.next()?, it.next()?);
            if it.next().is_some() || year.len() != 2 || day.len() != 2 {
                return None;
            }
            let yy: i64 = year.parse().ok()?;
            // Two-digit years: RFC 9110 says to read a year more than 50 years ahead as past.
            let year = if yy < 70 { 2000 + yy } else { 1900 + yy };
            (day.parse().ok()?, month_number(month)?, year, *time)
        }
        // asctime
        [wd, month, day, time, year] if weekday(wd, false) => (
            day.parse().ok()?,
            month_number(month)?,
            year_4(year)?,
            *time,
        ),
        _ => return None,
    };
    let mut hms = time.split(':');
    let (h, m, s) = (hms.next()?, hms.next()?, hms.next()?);
    if hms.next().is_some() || [h, m, s].iter().any(|p| p.len() != 2) {
        return None;
    }
    let (h, m, s): (u64, u64, u64) = (h.parse().ok()?, m.parse().ok()?, s.parse().ok()?);
    // 60 allows a leap second.
    if h > 23 || m > 59 || s > 60 || !(1..=days_in_month(year, month)).contains(&day) || year < 1970
    {
        return None;
    }
    let days = u64::try_from(days_from_civil(year, month, day)).ok()?;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(days * 86_400 + h * 3_600 + m * 60 + s))
}

fn weekday(name: &str, long: bool) -> bool {
    const SHORT: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const LONG: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    if long {
        LONG.contains(&name)
    } else {
        SHORT.contains(&name)
    }
}

fn month_number(name: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    MONTHS.iter().position(|m| *m == name).map(|i| i as u32 + 1)
}

fn year_4(year: &str) -> Option<i64> {
    (year.len() == 4).then(|| year.parse().ok()).flatten()
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn the_three_http_date_formats_agree() {
        let expected = Some(at(784_111_777));
        assert_eq!(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), expected);
        assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), expected);
        assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994"), expected);
    }

    #[test]
    fn dates_across_leap_years_and_centuries() {
        assert_eq!(
            parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"),
            Some(at(0))
        );
        assert_eq!(
            parse_http_date("Tue, 29 Feb 2000 12:00:00 GMT"),
            Some(at(951_825_600))
        );
        assert_eq!(
            parse_http_date("Wed, 01 Mar 2100 00:00:00 GMT"),
            Some(at(4_107_542_400))
        );
        assert_eq!(
            parse_http_date("Thursday, 01-Jan-70 00:00:00 GMT"),
            Some(at(0))
        );
        assert_eq!(
            parse_http_date("Sunday, 01-Jan-34 00:00:00 GMT"),
            Some(at(2_019_686_400))
        );
    }

    #[test]
    fn malformed_dates_are_rejected() {
        for bad in [
            "",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 29 Feb 1900 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Funday, 06-Nov-94 08:49:37 GMT",
            "Sun 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1969 08:49:37 GMT",
            "-5",
            "1.5",
        ] {
            assert_eq!(parse_retry_after(bad, at(0)), None, "{bad:?}");
        }
    }

    #[test]
    fn retry_after_seconds_and_past_dates() {
        assert_eq!(parse_retry_after(" 0 ", at(5)), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("86400", at(5)), Some(MAX_HINT));
        // Absurd: years, or more than a u64 holds.
        assert_eq!(parse_retry_after("86401", at(5)), None);
        assert_eq!(parse_retry_after("99999999999999999999999", at(5)), None);
        // A date in the past is ignored; the present is now.
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT", at(50)),
            None
        );
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:50 GMT", at(50)),
            Some(Duration::ZERO)
        );
        // A date years ahead is absurd.
        assert_eq!(
            parse_retry_after("Wed, 01 Mar 2100 00:00:00 GMT", at(50)),
            None
        );
    }

    #[test]
    fn amz_header_wins_and_invalid_values_are_skipped() {
        let now = at(0);
        let h = |pairs: &[(&'static str, &'static str)]| {
            retry_after_from_headers(pairs.iter().map(|(n, v)| (*n, v.as_bytes())), now)
        };
        assert_eq!(h(&[("RETRY-AFTER", "3")]), Some(Duration::from_secs(3)));
        assert_eq!(
            h(&[("X-Amz-Retry-After", "20"), ("Retry-After", "3")]),
            Some(Duration::from_millis(20))
        );
        assert_eq!(
            h(&[("x-amz-retry-after", "soon"), ("Retry-After", "3")]),
            Some(Duration::from_secs(3))
        );
        assert_eq!(h(&[("content-type", "1")]), None);
        assert_eq!(parse_amz_retry_after(""), None);
    }

    fn hint(pairs: &[(&'static str, &'static str)]) -> Option<RetryHint> {
        retry_hint_from_headers(pairs.iter().map(|(n, v)| (*n, v.as_bytes())), at(1_000))
    }

    fn ms(ms: u64) -> Option<RetryHint> {
        Some(RetryHint::After(Duration::from_millis(ms)))
    }

    #[test]
    fn each_hint_alone() {
        assert_eq!(hint(&[("grpc-retry-pushback-ms", "250")]), ms(250));
        assert_eq!(hint(&[("X-Amz-Retry-After", "300")]), ms(300));
        assert_eq!(hint(&[("Retry-After-Ms", "350")]), ms(350));
        assert_eq!(
            hint(&[("x-ms-retry-after-ms", "400.5")]),
            Some(RetryHint::After(Duration::from_micros(400_500)))
        );
        assert_eq!(hint(&[("retry-after", "2")]), ms(2_000));
        assert_eq!(
            hint(&[("retry-after", "Thu, 01 Jan 1970 00:16:43 GMT")]),
            ms(3_000)
        );
        assert_eq!(hint(&[("RateLimit", r#""default";r=0;t=4"#)]), ms(4_000));
        assert_eq!(
            hint(&[("RateLimit", "limit=10, remaining=0, reset=5")]),
            ms(5_000)
        );
        assert_eq!(
            hint(&[("RateLimit-Remaining", "0"), ("RateLimit-Reset", "6")]),
            ms(6_000)
        );
        assert_eq!(
            hint(&[("RateLimit-Reset", "6"), ("ratelimit-remaining", "0")]),
            ms(6_000)
        );
        // Something remains: no hint.
        assert_eq!(hint(&[("RateLimit", r#""default";r=1;t=4"#)]), None);
        assert_eq!(
            hint(&[("RateLimit-Remaining", "3"), ("RateLimit-Reset", "6")]),
            None
        );
        assert_eq!(hint(&[("RateLimit-Reset", "6")]), None);
        // Not read: its reset is a Unix time for some servers.
        assert_eq!(
            hint(&[("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "6")]),
            None
        );
    }

    #[test]
    fn the_first_of_the_table_that_reads_wins() {
        // Each header of the table with a hint of (its rank + 1) s, in its own unit: with all
        // of them, then without the winner each time, the next one wins.
        let table = [
            (GRPC_RETRY_PUSHBACK_MS, 1_000),
            (X_AMZ_RETRY_AFTER, 1_000),
            (RETRY_AFTER_MS, 1_000),
            (X_MS_RETRY_AFTER_MS, 1_000),
            (RETRY_AFTER, 1),
            (RATELIMIT, 1),
        ];
        let values: Vec<(&str, String)> = table
            .iter()
            .enumerate()
            .map(|(rank, (name, per_second))| {
                let n = (rank as u64 + 1) * per_second;
                let value = if *name == RATELIMIT {
                    format!("\"q\";r=0;t={n}")
                } else {
                    n.to_string()
                };
                (*name, value)
            })
            .collect();
        for first in 0..values.len() {
            let headers = values[first..]
                .iter()
                .rev()
                .map(|(n, v)| (*n, v.as_bytes()));
            assert_eq!(
                retry_hint_from_headers(headers, at(0)),
                ms((first as u64 + 1) * 1_000),
                "from {}",
                values[first].0
            );
        }
        // Invalid ones are skipped for the next that reads.
        assert_eq!(
            hint(&[
                ("retry-after-ms", "-5"),
                ("x-ms-retry-after-ms", "soon"),
                ("Retry-After", "9")
            ]),
            ms(9_000)
        );
        assert_eq!(
            hint(&[
                ("RateLimit", r#""default";r=0;t=99999999"#),
                ("RateLimit-Remaining", "0"),
                ("RateLimit-Reset", "8")
            ]),
            ms(8_000)
        );
        // gRPC's pushback that says no wins over every delay.
        assert_eq!(
            hint(&[("Retry-After", "5"), ("grpc-retry-pushback-ms", "-1")]),
            Some(RetryHint::DoNotRetry)
        );
        assert_eq!(
            hint(&[("grpc-retry-pushback-ms", "1.5")]),
            Some(RetryHint::DoNotRetry)
        );
        assert_eq!(
            retry_after_from_headers([("grpc-retry-pushback-ms", b"x".as_slice())], at(0)),
            None
        );
        assert_eq!(
            retry_hint_from_headers([("grpc-retry-pushback-ms", [0xff_u8].as_slice())], at(0)),
            Some(RetryHint::DoNotRetry)
        );
    }

    #[test]
    fn absurd_hints_are_ignored() {
        for (name, value) in [
            ("retry-after-ms", "86400001"),
            ("retry-after-ms", "1e3"),
            ("retry-after-ms", "+5"),
            ("retry-after-ms", "."),
            ("Retry-After", "31536000"),
            ("Retry-After", "-1"),
            ("Retry-After", "Thu, 01 Jan 1970 00:00:00 GMT"),
            ("RateLimit", r#""default";r=0;t=31536000"#),
            ("RateLimit", r#""default";r=0;t=-1"#),
            ("RateLimit", "garbage;;,,\"unterminated"),
        ] {
            assert_eq!(hint(&[(name, value)]), None, "{name}: {value}");
        }
        assert_eq!(parse_grpc_pushback("99999999999"), RetryHint::DoNotRetry);
        // The longest is taken, at most a day.
        assert_eq!(
            parse_ratelimit(r#""a";r=0;t=86400, "b";r=0;t=86401"#),
            Some(MAX_HINT)
        );
    }

    #[test]
    fn ratelimit_parameters_and_quotes() {
        // Parameters in any order, extra ones, a comma or a semicolon inside a quoted name.
        assert_eq!(
            parse_ratelimit(r#""a,b;c";pk=:abc=:;t=3;r=0"#),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            parse_ratelimit(r#"default;r=0;t=3"#),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            parse_ratelimit(r#""x\"y";r=0;t=2"#),
            Some(Duration::from_secs(2))
        );
        assert_eq!(parse_ratelimit(""), None);
        assert_eq!(
            parse_ratelimit("reset=4, remaining=0"),
            Some(Duration::from_secs(4))
        );
    }
}
