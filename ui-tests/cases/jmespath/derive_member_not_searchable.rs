// A member of a `#[derive(Searchable)]` struct whose type is not `Searchable`: one error, at the
// member's type, with the hint to derive it (every use the derive makes of the member reports
// the same error at the same place, which rustc shows once).
use waiter_runtime::Searchable;

#[derive(Debug)]
pub struct Table {
    pub table_status: String,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeTableOutput {
    pub table: Table,
    pub tables: Vec<Table>,
}

fn main() {}
