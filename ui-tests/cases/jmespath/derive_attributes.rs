use waiter_runtime::jmespath::Searchable;

#[derive(Searchable)]
#[searchable(rename_all = "Pascal")]
struct Output {
    #[searchable(blob, timestamp)]
    body: Vec<u8>,
    #[searchable(base64)]
    other: Vec<u8>,
    #[serde(rename = "Same")]
    a: String,
    #[serde(rename = "Same")]
    b: String,
}

#[derive(Searchable)]
#[serde(tag = "type")]
enum Tagged {
    A { x: u8 },
}

fn main() {}

#[derive(Searchable)]
#[serde(untagged)]
enum Untagged {
    A(u8),
}

#[derive(Searchable)]
#[serde(transparent)]
struct TwoFields {
    a: String,
    b: String,
}
