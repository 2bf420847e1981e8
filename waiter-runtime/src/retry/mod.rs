//! PLACEHOLDER: retry strategies, classifiers and the retry quota.
