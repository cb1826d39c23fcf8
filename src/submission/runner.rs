//! A built submission as the runner that runs it.

use super::Executable;
use crate::exec::ProgramError;
use crate::exec::runner::ProcessRunner;
use crate::exec::sandbox::Sandbox;
use std::path::Path;
use std::sync::Arc;

impl Executable {
    /// The runner of this build: its build directory staged when it needs
    /// one, no address-space limit for a JVM, the package's included data
    /// in each run's working directory. `source`: the user's file or
    /// directory, what the program's messages name instead of the judge's
    /// copy of its build.
    pub fn runner(
        self,
        sandbox: &Arc<Sandbox>,
        source: &Path,
    ) -> Result<ProcessRunner, ProgramError> {
        let user_dir = if source.is_dir() {
            source
        } else {
            source.parent().unwrap_or(Path::new("."))
        };
        let runner = ProcessRunner::from_build(
            self.program,
            self.args,
            self.build_dir.as_deref(),
            Arc::clone(sandbox),
        )?;
        let runner = if self.address_space {
            runner
        } else {
            runner.without_address_space_limit()
        };
        Ok(runner
            .with_companions(self.included_data)
            .shown_from(user_dir))
    }
}
