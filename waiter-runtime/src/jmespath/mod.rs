//! PLACEHOLDER: JMESPath runtime helpers for code emitted by `jmespath!` and `#[waitable]`.
