//! The Kattis package format's versions (`problem_format_version`): a
//! module of its own because the judge's model (a problem's package
//! format) and the Kattis reader and writers all name it, and the model
//! may not lean on the Kattis folder that takes it.

/// `problem_format_version`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FormatVersion {
    /// Absent or `legacy`: the original Kattis format.
    #[default]
    Legacy,
    /// `2023-07-draft`.
    V2023_07,
    /// `2025-09` (and `draft`, its working name).
    V2025_09,
}

impl FormatVersion {
    /// The version `problem_format_version` names, if the judge reads it.
    pub(crate) fn parse(text: &str) -> Option<FormatVersion> {
        Some(match text {
            "legacy" | "legacy-icpc" => FormatVersion::Legacy,
            "2023-07-draft" | "2023-07" => FormatVersion::V2023_07,
            "2025-09" | "2025-09-draft" | "draft" => FormatVersion::V2025_09,
            _ => return None,
        })
    }

    /// The name of a group's settings file in this version.
    pub fn group_file(self) -> &'static str {
        match self {
            FormatVersion::V2025_09 => "test_group.yaml",
            _ => "testdata.yaml",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FormatVersion::Legacy => "legacy",
            FormatVersion::V2023_07 => "2023-07-draft",
            FormatVersion::V2025_09 => "2025-09",
        }
    }
}
