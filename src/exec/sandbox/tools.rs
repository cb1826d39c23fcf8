//! Where the package's own programs run: checkers, validators,
//! interactors, generators, and the builds of their sources.
//!
//! They are the problem setter's, not the submission's, and must read
//! what the judge reads (a package anywhere, answers, the toolchains under
//! a closed home), so they keep the judge's user and environment. But a
//! hostile package is a threat of its own (an output validator that
//! rewrites the package's answers, writes where the judge's user may, or
//! reaches a service on the host), so they run in namespaces of their own,
//! made once per judge:
//! - a mount namespace where every mount is read-only (`/`, recursively,
//!   `/proc` and `/sys` with it) but the judge's private directory, where
//!   each tool run has its own directory (a checker's output and feedback,
//!   a generator's files, a build's): the package, the cache, HOME and
//!   /tmp cannot be written;
//! - a network namespace with a loopback, down; IPC and UTS namespaces;
//! - under root, a capability bounding set of `CAP_DAC_READ_SEARCH`
//!   alone: root's uid (it reads what the judge reads), none of its powers
//!   (no remount, no ptrace of root's processes, no writing a file root's
//!   uid does not own; what the uid owns is on a read-only mount);
//! - the submissions' seccomp filter (no Unix socket to reach a host
//!   service, no keyring, no io_uring) and the tool rule (no ptrace, no
//!   other process's memory, no `open_by_handle_at`).
//!
//! Without root the namespaces sit in a user namespace that maps the
//! judge's uid to itself, and a program has no capability once it execs.

use super::namespaces::{self, NamespacePlan, SlotNamespaces};
use std::path::Path;

/// `CAP_DAC_READ_SEARCH`: read any file, search any directory.
const CAP_DAC_READ_SEARCH: u64 = 1 << 2;

/// The package programs' namespaces and what their processes keep.
#[derive(Debug)]
pub struct Tools {
    pub(super) namespaces: SlotNamespaces,
    /// Under root, the capabilities a tool keeps (see `child`).
    pub(super) keep_capabilities: Option<u64>,
}

/// Make the tools' namespaces: everything read-only but `private`.
pub(super) fn create(private: &Path, root: bool) -> Result<Tools, namespaces::NamespaceError> {
    // SAFETY: getuid/getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let plan = NamespacePlan {
        user: (!root).then_some((uid, gid)),
        scratch: private.to_path_buf(),
        read_only_root: true,
        ..NamespacePlan::default()
    };
    let namespaces = namespaces::create(&plan)?;
    Ok(Tools {
        namespaces,
        keep_capabilities: root.then_some(CAP_DAC_READ_SEARCH),
    })
}
