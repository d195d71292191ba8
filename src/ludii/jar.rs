//! A minimal reader for the zip archives Ludii ships (`Ludii-x.y.jar`, `ludii-res.jar`): the central directory, stored and deflated entries, with size budgets.
//!
//! Only what reading Ludii's defines and library needs: no encryption, no zip64, no spanning.
//! Works on bytes; the CLI reads the file.

use flate2::read::DeflateDecoder;
use std::io::Read;

/// One entry of the central directory.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Path inside the archive, `/`-separated.
    pub name: String,
    method: u16,
    compressed: usize,
    /// Size once extracted.
    pub size: usize,
    header: usize,
}

/// Largest number of entries read from one archive.
pub const MAX_ENTRIES: usize = 200_000;
/// Largest extracted size of one entry.
pub const MAX_ENTRY_SIZE: usize = 16 << 20;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The entries of a zip archive, in directory order.
pub fn entries(b: &[u8]) -> Result<Vec<Entry>, String> {
    // The end-of-central-directory record is in the last 64 KiB + 22 bytes.
    let lo = b.len().saturating_sub(65_536 + 22);
    let eocd = (lo..b.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(b, i) == Some(0x0605_4b50))
        .ok_or("not a zip archive (no end of central directory)")?;
    let count = u16_at(b, eocd + 10).ok_or("truncated zip")? as usize;
    let mut at = u32_at(b, eocd + 16).ok_or("truncated zip")? as usize;
    if count > MAX_ENTRIES {
        return Err(format!("more than {MAX_ENTRIES} entries"));
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(b, at) != Some(0x0201_4b50) {
            return Err(format!("bad central directory entry at byte {at}"));
        }
        let field = |o: usize| u32_at(b, at + o).map(|v| v as usize);
        let method = u16_at(b, at + 10).ok_or("truncated zip")?;
        let compressed = field(20).ok_or("truncated zip")?;
        let size = field(24).ok_or("truncated zip")?;
        let name_len = u16_at(b, at + 28).ok_or("truncated zip")? as usize;
        let extra = u16_at(b, at + 30).ok_or("truncated zip")? as usize;
        let comment = u16_at(b, at + 32).ok_or("truncated zip")? as usize;
        let header = field(42).ok_or("truncated zip")?;
        let name = b.get(at + 46..at + 46 + name_len).ok_or("truncated zip")?;
        out.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            method,
            compressed,
            size,
            header,
        });
        at += 46 + name_len + extra + comment;
    }
    Ok(out)
}

/// The extracted bytes of `e`.
pub fn read(b: &[u8], e: &Entry) -> Result<Vec<u8>, String> {
    if e.size > MAX_ENTRY_SIZE {
        return Err(format!("{}: larger than {MAX_ENTRY_SIZE} bytes", e.name));
    }
    let h = e.header;
    if u32_at(b, h) != Some(0x0403_4b50) {
        return Err(format!("{}: bad local header", e.name));
    }
    let name_len = u16_at(b, h + 26).ok_or("truncated zip")? as usize;
    let extra = u16_at(b, h + 28).ok_or("truncated zip")? as usize;
    let start = h + 30 + name_len + extra;
    let data = b
        .get(start..start.saturating_add(e.compressed))
        .ok_or_else(|| format!("{}: truncated data", e.name))?;
    match e.method {
        0 => Ok(data.to_vec()),
        8 => {
            let mut out = Vec::with_capacity(e.size);
            DeflateDecoder::new(data)
                .take(MAX_ENTRY_SIZE as u64 + 1)
                .read_to_end(&mut out)
                .map_err(|err| format!("{}: {err}", e.name))?;
            if out.len() > MAX_ENTRY_SIZE {
                return Err(format!("{}: larger than {MAX_ENTRY_SIZE} bytes", e.name));
            }
            Ok(out)
        }
        m => Err(format!(
            "{}: compression method {m} is not supported",
            e.name
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-entry stored zip, written by hand.
    fn stored(name: &str, data: &[u8]) -> Vec<u8> {
        let mut z = Vec::new();
        let local = |z: &mut Vec<u8>| {
            z.extend(0x0403_4b50u32.to_le_bytes());
            z.extend([20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            z.extend((data.len() as u32).to_le_bytes());
            z.extend((data.len() as u32).to_le_bytes());
            z.extend((name.len() as u16).to_le_bytes());
            z.extend([0, 0]);
            z.extend(name.as_bytes());
            z.extend(data);
        };
        local(&mut z);
        let cd = z.len();
        z.extend(0x0201_4b50u32.to_le_bytes());
        z.extend([20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        z.extend((data.len() as u32).to_le_bytes());
        z.extend((data.len() as u32).to_le_bytes());
        z.extend((name.len() as u16).to_le_bytes());
        z.extend([0; 12]);
        z.extend(0u32.to_le_bytes());
        z.extend(name.as_bytes());
        let cd_len = z.len() - cd;
        z.extend(0x0605_4b50u32.to_le_bytes());
        z.extend([0, 0, 0, 0, 1, 0, 1, 0]);
        z.extend((cd_len as u32).to_le_bytes());
        z.extend((cd as u32).to_le_bytes());
        z.extend([0, 0]);
        z
    }

    #[test]
    fn reads_a_stored_entry_and_refuses_garbage() {
        let z = stored("def/A.def", b"(define \"A\" 1)");
        let e = entries(&z).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].name, "def/A.def");
        assert_eq!(read(&z, &e[0]).unwrap(), b"(define \"A\" 1)");
        assert!(entries(b"not a zip at all").is_err());
        for cut in [10, z.len() / 2, z.len() - 5] {
            // A truncated archive loses its end record: refused, never a panic.
            assert!(entries(&z[..cut]).is_err(), "cut at {cut}");
        }
        // A central directory pointing past the data: the entry read fails.
        let mut bad = z.clone();
        let cd = bad.len() - 22 - 46 - "def/A.def".len();
        bad[cd + 42..cd + 46].copy_from_slice(&1_000_000u32.to_le_bytes());
        let e = entries(&bad).unwrap();
        assert!(read(&bad, &e[0]).is_err());
    }
}
