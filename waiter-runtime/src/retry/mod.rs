//! PLACEHOLDER: retry strategies, classifiers and the retry quota.

pub mod adaptive;
