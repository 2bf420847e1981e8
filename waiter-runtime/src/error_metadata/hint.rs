//! Reading a server's retry-after hint from response headers: `x-amz-retry-after`
//! (milliseconds) and `Retry-After` (delay-seconds or an HTTP-date).
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use waiter_runtime::error_metadata::hint;
//!
//! let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_770); // Sun, 06 Nov 1994 08:49:30 GMT
//! assert_eq!(hint::parse_retry_after("120", now), Some(Duration::from_secs(120)));
//! assert_eq!(hint::parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now), Some(Duration::from_secs(7)));
//! assert_eq!(hint::parse_amz_retry_after("1500"), Some(Duration::from_millis(1500)));
//!
//! let headers = [("Retry-After", "5".as_bytes()), ("x-amz-retry-after", "250".as_bytes())];
//! assert_eq!(hint::retry_after_from_headers(headers, now), Some(Duration::from_millis(250)));
//! ```

use std::time::{Duration, SystemTime};

/// The `Retry-After` header's name.
pub const RETRY_AFTER: &str = "retry-after";
/// The `x-amz-retry-after` header's name.
pub const X_AMZ_RETRY_AFTER: &str = "x-amz-retry-after";

/// Parses a `Retry-After` value (RFC 9110): a number of seconds, or an HTTP-date, read
/// relative to `now` (a date in the past means "now": zero). `None` if it is neither.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // Saturate absurdly long values rather than reject them; the retrier bounds them anyway.
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    let at = parse_http_date(value)?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
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

/// The retry-after hint in a response's headers (names compared case-insensitively):
/// `x-amz-retry-after` if present and valid, else `Retry-After`.
pub fn retry_after_from_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    now: SystemTime,
) -> Option<Duration> {
    let mut standard = None;
    for (name, value) in headers {
        let Ok(value) = std::str::from_utf8(value) else {
            continue;
        };
        if name.eq_ignore_ascii_case(X_AMZ_RETRY_AFTER) {
            if let Some(hint) = parse_amz_retry_after(value) {
                return Some(hint);
            }
        } else if standard.is_none() && name.eq_ignore_ascii_case(RETRY_AFTER) {
            standard = parse_retry_after(value, now);
        }
    }
    standard
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
        assert_eq!(
            parse_retry_after("99999999999999999999999", at(5)),
            Some(Duration::from_secs(u64::MAX))
        );
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT", at(50)),
            Some(Duration::ZERO)
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
}
