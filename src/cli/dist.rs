//! `zogkit dist-assets DIR` (hidden; run by `cargo xtask dist`): shell completions and man pages
//! generated from the command-line definition, so they cannot drift from it.

use super::{EXIT_OK, EXIT_USAGE, display_path, write_atomic};
use clap_complete::Shell;
use std::path::Path;

/// Writes `DIR/completions/` (bash, zsh, fish, elvish, PowerShell) and `DIR/man/` (`zogkit.1`
/// and one `zogkit-SUBCOMMAND.1` per subcommand) for the command `cmd`.
pub fn run(mut cmd: clap::Command, dir: &Path) -> u8 {
    match write_all(&mut cmd, dir) {
        Ok(n) => {
            eprintln!("wrote {n} files into {}", display_path(dir));
            EXIT_OK
        }
        Err(e) => {
            super::error_line!("{e}");
            EXIT_USAGE
        }
    }
}

fn write_all(cmd: &mut clap::Command, dir: &Path) -> Result<usize, String> {
    let name = cmd.get_name().to_string();
    let put = |path: &Path, bytes: &[u8]| {
        write_atomic(path, bytes).map_err(|e| format!("cannot write {}: {e}", display_path(path)))
    };
    let mut count = 0;
    cmd.build();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let mut bytes = Vec::new();
        clap_complete::generate(shell, cmd, &name, &mut bytes);
        let file = match shell {
            Shell::Bash => format!("{name}.bash"),
            Shell::Zsh => format!("_{name}"),
            Shell::Fish => format!("{name}.fish"),
            Shell::Elvish => format!("{name}.elv"),
            _ => format!("_{name}.ps1"),
        };
        put(&dir.join("completions").join(file), &bytes)?;
        count += 1;
    }
    let man = dir.join("man");
    let mut page = |c: &clap::Command, title: String| -> Result<(), String> {
        let mut bytes = Vec::new();
        let file = format!("{title}.1");
        clap_mangen::Man::new(c.clone())
            .title(title.to_uppercase())
            .render(&mut bytes)
            .map_err(|e| e.to_string())?;
        put(&man.join(file), &bytes)?;
        count += 1;
        Ok(())
    };
    page(cmd, name.clone())?;
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        page(sub, format!("{name}-{}", sub.get_name()))?;
    }
    Ok(count)
}
