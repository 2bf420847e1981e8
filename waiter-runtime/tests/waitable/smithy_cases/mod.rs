//! Smithy's own waiter validation cases (`smithy-lang/smithy`,
//! `smithy-waiters/src/test/resources/software/amazon/smithy/waiters/errorfiles/`), translated:
//! each operation is an `async fn` returning `Result<Output, Error>`, each output structure a
//! `#[derive(Searchable)]` struct with the same member names, and each `@waitable( .. )` trait
//! value pasted as the model writes it (comments included). These modules hold what Smithy
//! accepts (`valid_models`: the `valid-*` models and the valid waiters of the other models;
//! `error_types_and_names`; `fixed_models`: rejected models written as the errors say) and poll
//! each waiter against canned outputs on tokio's paused clock; what Smithy rejects is a compile
//! error, one `ui-tests/cases/waitable/*.rs` per rule.
//!
//! How each Smithy event maps to us (an ERROR is always a compile error from us; a DANGER on a
//! path the static types say can never match, or that reads a member that does not exist, is
//! one too, since our paths are typed; WARNINGs that only say "may be null" we accept):
//!
//! | Smithy case | Smithy event | us (ui case) |
//! |---|---|---|
//! | `emits-danger-and-warning-typechecks` `` `10`.foo `` | DANGER field of a number | error: `jmespath_field_of_literal`; on a typed member (`foo.bar`, `foo: String`): `smithy_member_of_non_structure` |
//! | `emits-danger-and-warning-typechecks` `` `true` < `false` `` | WARNING `<` on booleans + DANGER returns null | one error (the path is always null): `jmespath_boolean_equals_on_null` |
//! | `invalid-boolean-expected-value` | ERROR expected not "true"/"false" | error: `boolean_equals_expected_not_boolean` |
//! | `invalid-errorType` | WARNING errorType not among the operation's errors | a warning (rustc's `deprecated` lint, at the `errorType`) when the error type derives `ProvideErrorMetadata` and every code is written in it: `smithy_error_type_not_a_code`; otherwise accepted silently (a hand-written `ProvideErrorMetadata` or a code read from a field may answer anything); it compiles and runs either way (`error_types_and_names::invalid_error_type`) |
//! | `invalid-jmespath-syntax` `\|\|` | ERROR syntax | error: `jmespath_invalid` |
//! | `invalid-jmespath-syntax` `` length(`10`) `` | ERROR argument + DANGER returns number | one error (the argument): `jmespath_literal_argument_wrong_type` |
//! | the same rule on a typed member (`abs(foo)`, `foo: String`; `join(', ', items)`...) | ERROR function argument | error per argument, by the JMESPath signatures: `smithy_function_argument_types` (only `length` was checked before) |
//! | `emits-danger-and-warning-typechecks` `<` on booleans, on a typed member (`ready`, a `bool`, ordered with `<`) | WARNING, and DANGER when the path is then always null | error per operand that is not a number: `smithy_ordering_non_numbers` |
//! | `invalid-return-types` (4 acceptors on `length(@)`) | DANGER per comparator | error per acceptor: `jmespath_boolean_equals_on_length`, `jmespath_list_comparator_on_non_array` (one rule: the path's static type cannot satisfy the comparator) |
//! | `invalid-message-on-non-failure` | ERROR | error: `message_on_non_failure_acceptor` |
//! | `invalid-message-return-type` (`baz: Boolean`) | ERROR | error: `message_not_a_string` (static type); a typed member: the next row's rule |
//! | `invalid-message-array-of-non-strings` (`flags: BooleanList`) | ERROR | error: `smithy_invalid_message_array_of_non_strings` |
//! | `invalid-message-jmespath` (`foo.@@invalid`) | ERROR syntax | error: `smithy_invalid_message_jmespath` |
//! | `invalid-output-structure-member-access`, `invalid-structure-member-access` | DANGER unknown member | error: `typed_typo` |
//! | `invalid-inputoutput-path` `input.foop == output.bazz` | 2 DANGER unknown members | 2 errors: `typed_input_output_sides` |
//! | `invalid-inputoutput-path` `foo == baz` | 2 DANGER (no `input`/`output` root) | error per root: `input_output_unknown_root` |
//! | `inputOutput-operation-with-no-input` | none (Smithy 2.0: input is an empty structure) | accepted (`valid_models`); reading `input.x` with no parameter is an error: `input_output_input_without_parameters` |
//! | `inputOutput-operation-with-no-output` (and the 1.0 `invalid-inputOutput-..`) | DANGER (ERROR in Smithy 1.0) | error: `input_output_output_on_unit_output` |
//! | `output-on-bad-shapes` (and the 1.0 `input-output-on-bad-shapes`) | DANGER (ERROR in 1.0) | error: `output_matcher_on_unit_output` |
//! | `minDelay-greater-than-maxDelay` | ERROR on `Bad` | error: `min_delay_above_max_delay`; `Good` in `valid_models` |
//! | `not-uppercamelcase` | ERROR | error: `name_not_upper_camel_case` |
//! | (trait value) `WaiterDelay` is an `integer` `@range(min: 1)`; `tags` a `NonEmptyStringList` | ERROR (trait value) | error: `delay_below_one`, `smithy_delay_not_an_integer` (above 2147483647), `smithy_tags_empty_string` |
//! | `waiter-missing-success-state` | ERROR | error: `no_success_acceptor` |
//! | `waiter-name-conflicts` (same names on two operations of one service) | ERROR | error: `name_duplicate_across_functions`, `name_duplicate_ignoring_case` (one service is one client: the operations are methods of one impl block) |
//! | `cannot-wait-on-streaming-operations` | ERROR (trait target) | not applicable: a Rust signature does not say that a member streams; a stream type that is not `Searchable` is already an error when a path reads it, and a `success`/`errorType` waiter on a call that opens a stream is harmless (each poll is a new call) |
//! | `valid-composite`, `valid-inputpath` (Smithy 1.0 drafts: `and`/`or`/`not` and `input` matchers, `arrayEmpty`) | none then; removed from Smithy | errors saying what to write: `smithy_composite_matchers`, `smithy_input_matcher`, `smithy_array_empty_comparator`; their conditions written as today's spec allows are in `fixed_models` |
//!
//! Where we differ from Smithy's validators, on purpose:
//! - Two names equal ignoring case on one operation (`AB` and `Ab`): Smithy's
//!   `UniqueWaiterNamesValidator` only compares the waiters of different operations, so it
//!   accepts them; the spec says each waiter in the closure of a service MUST have a
//!   case-insensitively unique name, and both would be `wait_until_ab`: an error
//!   (`name_duplicate_ignoring_case`).
//! - A map member read by key (`labels.env`): Smithy's linter samples a map as an object with
//!   made-up keys and flags the read (DANGER); a map has any key, so we accept it
//!   (`typed_paths.rs`).
//! - Names equal ignoring case on two methods without a visibility (a trait impl's methods get
//!   no case marker, see the `waitable` docs): only identical `wait_until_*` names collide there.

// Smithy's test models name their members `foo` and `baz`; the helpers keep the names.
#![allow(clippy::disallowed_names)]

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use waiter_runtime::{FinalPoll, ProvideErrorMetadata, Searchable, WaiterError, waitable};

mod error_types_and_names;
mod fixed_models;
mod valid_models;

/// Canned replies: each call takes the next one; the last one repeats.
struct Replies<O, E>(Mutex<VecDeque<Result<O, E>>>);

impl<O: Clone, E: Clone> Replies<O, E> {
    fn new(replies: impl IntoIterator<Item = Result<O, E>>) -> Self {
        Self(Mutex::new(replies.into_iter().collect()))
    }

    fn next(&self) -> Result<O, E> {
        let mut replies = self.0.lock().unwrap();
        if replies.len() > 1 {
            replies.pop_front().unwrap()
        } else {
            replies.front().cloned().expect("no canned reply")
        }
    }
}

const MAX_WAIT: Duration = Duration::from_secs(60);

fn polls<O, E>(done: &FinalPoll<O, E>) -> u32 {
    done.polls
}

fn failure_acceptor<O, E>(err: &WaiterError<O, E>) -> Option<(usize, Option<&str>)> {
    match err {
        WaiterError::FailureState {
            acceptor, message, ..
        } => Some((*acceptor, message.as_deref())),
        _ => None,
    }
}
