//! The adaptive pieces (CUBIC, the transmit rate, the token bucket) and their composition,
//! against the AWS SDKs' published tables and against botocore's own classes. Unit tests:
//! the pieces are private to this module.

mod botocore_fixture;
mod botocore_oracle;
mod botocore_shared;
mod published_tables;
