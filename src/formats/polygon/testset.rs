//! One test of a testset and how it is made: what problem.xml's `<tests>`
//! says and the testset's generation script (`script`) fills in, apart so
//! that the reader and the script share it without leaning on each other.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Manual,
    Generated,
}

/// One test of the testset, numbered from 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    pub index: usize,
    pub method: Method,
    /// A generated test's command line (`gen 10 3`), from problem.xml or
    /// the testset's script.
    pub cmd: Option<String>,
    /// `from-file`: the file of `cmd`'s working directory that is this
    /// test (a generator writing several tests in one run); `None` is its
    /// standard output.
    pub from_file: Option<String>,
    pub sample: bool,
    pub group: Option<String>,
    pub points: Option<f64>,
}
