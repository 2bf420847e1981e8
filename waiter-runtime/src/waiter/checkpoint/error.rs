//! Why a checkpoint cannot be taken up: [`CheckpointError`].

use std::fmt;
use std::time::Duration;

/// Why a checkpoint cannot be taken up. Each variant names the difference: a checkpoint is
/// never resumed on another waiter, definition or input, nor started afresh in its place.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// The checkpoint is another waiter's.
    OtherWaiter {
        /// The waiter asked to resume.
        waiter: &'static str,
        /// The waiter the checkpoint is of.
        checkpoint: String,
    },
    /// The waiter's definition (its acceptors or delays) is not the one the checkpoint was
    /// taken under: an upgrade changed the waiter.
    OtherDefinition {
        /// The waiter's name.
        waiter: &'static str,
        /// The checkpoint's definition fingerprint.
        checkpoint: u64,
        /// The waiter's ([`WaiterMetadata::fingerprint`](crate::waiter::WaiterMetadata::fingerprint)).
        current: u64,
    },
    /// The checkpoint waits on another input: another resource (the `wait_until_*`
    /// arguments, or the key of [`Waiter::checkpoint_key`](crate::Waiter::checkpoint_key),
    /// differ).
    OtherInput {
        /// The waiter's name.
        waiter: &'static str,
        /// The checkpoint's input digest (`None`: its input was not identified).
        checkpoint: Option<u64>,
        /// The input digest of the waiter asked to resume.
        current: u64,
    },
    /// The waiter asked to resume cannot tell which input it polls: one of its arguments has
    /// no [`InputIdentity`](crate::waiter::InputIdentity). Derive `Hash` for its type,
    /// implement `InputIdentity` for it, or bind the wait to a key of your own with
    /// [`Waiter::checkpoint_key`](crate::Waiter::checkpoint_key).
    InputNotIdentified {
        /// The waiter's name.
        waiter: &'static str,
        /// The first argument without an identity.
        argument: &'static str,
    },
    /// The checkpoint's format is not the one this version takes: newer (written by a later
    /// version), unknown, or the first one (which carries no definition nor input to check).
    Format {
        /// The checkpoint's format.
        found: u32,
        /// The format this version takes ([`WaitCheckpoint::FORMAT`](crate::waiter::WaitCheckpoint::FORMAT)).
        supported: u32,
    },
    /// The checkpoint cannot be read, or its values contradict each other (truncated,
    /// edited, not a checkpoint).
    Corrupt {
        /// What is wrong with it.
        reason: String,
    },
    /// The checkpoint's deadline has passed: there is nothing left to wait for.
    DeadlinePassed {
        /// The waiter's name.
        waiter: &'static str,
        /// The checkpoint's maximum wait.
        max_wait: Duration,
        /// Time since the wait started (wall clock, or the checkpoint's own count if more).
        elapsed: Duration,
    },
    /// The wait started further back than this machine's monotonic clock reaches (a
    /// checkpoint older than the machine's uptime, or a wall clock far off).
    OutOfClockRange {
        /// The waiter's name.
        waiter: &'static str,
        /// Time since the wait started.
        elapsed: Duration,
    },
    /// A set's checkpoint has another number of members than the waiters given to resume it.
    SetSize {
        /// Members in the checkpoint.
        checkpoint: usize,
        /// Waiters given.
        waiters: usize,
    },
    /// A member of a set cannot be taken up.
    Member {
        /// The member's index, in the set's order.
        index: usize,
        /// Why.
        error: Box<CheckpointError>,
    },
}

/// A fingerprint or digest as a checkpoint's JSON writes it.
struct Hex(u64);

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::OtherWaiter { waiter, checkpoint } => write!(
                f,
                "cannot resume waiter `{waiter}` from a checkpoint of waiter `{checkpoint}`"
            ),
            CheckpointError::OtherDefinition {
                waiter,
                checkpoint,
                current,
            } => write!(
                f,
                "cannot resume waiter `{waiter}`: its definition (acceptors or delays) changed since the checkpoint was taken (definition {} in the checkpoint, {} now)",
                Hex(*checkpoint),
                Hex(*current)
            ),
            CheckpointError::OtherInput {
                waiter,
                checkpoint: Some(checkpoint),
                current,
            } => write!(
                f,
                "cannot resume waiter `{waiter}`: the checkpoint waits on another input (input {} in the checkpoint, {} for these arguments)",
                Hex(*checkpoint),
                Hex(*current)
            ),
            CheckpointError::OtherInput {
                waiter,
                checkpoint: None,
                current,
            } => write!(
                f,
                "cannot resume waiter `{waiter}`: the checkpoint does not say which input it waits on (its waiter's arguments were not identified), these arguments are input {}",
                Hex(*current)
            ),
            CheckpointError::InputNotIdentified { waiter, argument } => write!(
                f,
                "cannot resume waiter `{waiter}`: argument `{argument}` has no `InputIdentity`, so the checkpoint cannot be checked against the input; derive `Hash` for its type, implement `InputIdentity` for it, or bind the wait to a key with `.checkpoint_key(..)`"
            ),
            CheckpointError::Format { found, supported } => write!(
                f,
                "cannot resume a checkpoint of format {found}: this version takes format {supported}"
            ),
            CheckpointError::Corrupt { reason } => {
                write!(f, "cannot resume a corrupt checkpoint: {reason}")
            }
            CheckpointError::DeadlinePassed {
                waiter,
                max_wait,
                elapsed,
            } => write!(
                f,
                "cannot resume waiter `{waiter}`: its deadline has passed ({elapsed:?} since it started, maximum wait {max_wait:?})"
            ),
            CheckpointError::OutOfClockRange { waiter, elapsed } => write!(
                f,
                "cannot resume waiter `{waiter}`: it started {elapsed:?} ago, further back than this machine's monotonic clock reaches"
            ),
            CheckpointError::SetSize {
                checkpoint,
                waiters,
            } => write!(
                f,
                "cannot resume a set of {checkpoint} waiters with {waiters} waiters"
            ),
            CheckpointError::Member { index, error } => {
                write!(f, "set member {index}: {error}")
            }
        }
    }
}

impl std::error::Error for CheckpointError {}
