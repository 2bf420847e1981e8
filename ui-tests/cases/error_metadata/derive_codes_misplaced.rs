// `codes = [..]` declares what a catch-all variant (its code read from a field) may carry that
// no variant models: on a variant with a fixed code, with a non-string, or naming a variant's
// own code, it is an error saying so.
use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    #[error_metadata(codes = ["Gone"])]
    NotFound,
    #[error_metadata(codes = ["NotFound"])]
    Other {
        #[error_metadata(code)]
        code: String,
    },
    #[error_metadata(codes = [42])]
    Unmodeled {
        #[error_metadata(code)]
        code: String,
    },
}

fn main() {}
