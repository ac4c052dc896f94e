"""A score file's text, read within a size limit (the command line and the
dashboard server).

:func:`read_text` refuses, naming the file and the fix:

- a file larger than the input limit, before reading it: a regular file by
  its size (``os.stat``), anything else (a pipe, ``/dev/zero``, a FIFO) as it
  is read, in chunks of 1 MiB, stopping as soon as it passes the limit;
- a binary file (a workbook, a PDF) and a NUL character or text not in the
  given encoding in the first chunk, before the rest is read (so
  ``/dev/zero`` or ``/dev/urandom`` is refused at once);
- a missing file, a directory, an unreadable or empty file.

The limit is :data:`DEFAULT_MAX_INPUT` (256 MiB: a CSV of about ten million
scores), raised or lowered with the environment variable
``NBSTATS_MAX_INPUT`` or the command's ``--max-input`` (bytes, or with a
unit: ``1G``, ``512M``).
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path

__all__ = ["DEFAULT_MAX_INPUT", "input_limit", "parse_size", "read_text"]

#: The largest score file read without ``--max-input``/``NBSTATS_MAX_INPUT``.
DEFAULT_MAX_INPUT = 256 * 2**20
#: Bytes read at a time from a file that is not a regular file.
CHUNK = 2**20

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}

#: Bytes that open files which are not CSV text: what they probably are.
_BINARY = {
    b"PK\x03\x04": "a zip archive (an Excel .xlsx or .ods workbook? save it as CSV)",
    b"\xd0\xcf\x11\xe0": "an old Excel .xls workbook (save it as CSV)",
    b"%PDF": "a PDF file",
}


def parse_size(text: str | int) -> int:
    """Bytes from an int or a size such as ``"512M"``, ``"1.5G"`` or ``"300MB"``.

    Examples
    --------
    >>> parse_size("1G") == 2**30, parse_size("512k"), parse_size(1000)
    (True, 524288, 1000)
    """
    if isinstance(text, int) and not isinstance(text, bool):
        nbytes = text
    else:
        match = re.fullmatch(
            r"\s*([0-9]*\.?[0-9]+)\s*([KMGT]?)(?:I?B)?\s*", str(text).upper()
        )
        if match is None:
            raise ValueError(
                f"{text!r} is not a size; give bytes or a number with a unit, "
                "e.g. 512M or 2G."
            )
        nbytes = int(float(match.group(1)) * _UNITS[match.group(2)])
    if nbytes < 1:
        raise ValueError(f"{text!r} is not a size; give at least 1 byte, e.g. 512M.")
    return nbytes


def input_limit(value: str | int | None = None) -> int:
    """The input limit, bytes: ``value`` if given, else ``NBSTATS_MAX_INPUT``,
    else :data:`DEFAULT_MAX_INPUT`.

    Examples
    --------
    >>> input_limit("64M") // 2**20
    64
    """
    if value is not None:
        return parse_size(value)
    variable = os.environ.get("NBSTATS_MAX_INPUT", "").strip()
    if not variable:
        return DEFAULT_MAX_INPUT
    try:
        return parse_size(variable)
    except ValueError as error:
        raise ValueError(f"NBSTATS_MAX_INPUT: {error}") from None


def _fail(path: str, problem: str, line: int | None = None) -> ValueError:
    where = f"{path}, line {line}" if line is not None else path
    return ValueError(f"{where}: {problem}")


def _shown_size(nbytes: int) -> str:
    """``"256 MiB"``, ``"1.5 GiB"``, ``"300 bytes"``."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= size:
            return f"{nbytes / size:.4g} {unit}"
    return f"{nbytes} bytes"


def _too_large(path: str, limit: int, size: int | None) -> ValueError:
    found = (
        f"the file is {_shown_size(size)}, more than"
        if size is not None
        else "it gave more than"  # a pipe or a device: read up to the limit
    )
    megabytes = -(-max(2 * limit, size or 0) // 2**20)
    return _fail(
        path,
        f"{found} the input limit of {_shown_size(limit)}; a score CSV is "
        "usually far smaller (is this the right file?). If it is, raise the "
        f"limit with --max-input {megabytes}M (or the environment variable "
        f"NBSTATS_MAX_INPUT={megabytes}M).",
    )


def _decoding_error(
    path: str, data: bytes | bytearray, encoding: str, error: UnicodeDecodeError
) -> ValueError:
    start = error.start
    if codecs.lookup(encoding).name == "utf-8" and data.startswith(codecs.BOM_UTF8):
        start += len(codecs.BOM_UTF8)  # utf-8-sig counts after its mark
    line = data.count(b"\n", 0, start) + 1
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    fix = "--encoding utf-16" if utf16 else "--encoding latin-1 (or cp1252)"
    return _fail(
        path,
        f"not {encoding} text (byte 0x{data[start]:02x} at offset {start}); "
        f"give the file's encoding, e.g. {fix}.",
        line,
    )


def _check_text(path: str, text: str, encoding: str) -> None:
    """Refuse a NUL character (not text in ``encoding``: a UTF-16 file?)."""
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise _fail(
            path,
            f"a NUL character: this is not {encoding} CSV text (a UTF-16 file? "
            "then pass --encoding utf-16).",
            line,
        )


def _read_limited(path: str, encoding: str, limit: int) -> bytearray:
    """The file's bytes, at most ``limit``: a larger regular file is refused
    by its size, anything else once it has given more; the first chunk is
    checked (binary, encoding, NUL) before the rest is read."""
    file = Path(path)
    if file.is_dir():
        raise IsADirectoryError(
            f"{path}: is a directory, not a file; give the path of the score CSV."
        )
    if not file.exists():
        raise FileNotFoundError(
            f"{path}: no such score file; check the path (relative paths start "
            f"in {Path.cwd()})."
        )
    status = os.stat(path)
    regular = stat.S_ISREG(status.st_mode)
    if regular and status.st_size > limit:
        raise _too_large(path, limit, status.st_size)
    data = bytearray()
    try:
        with file.open("rb") as stream:
            while chunk := stream.read(min(CHUNK, limit + 1 - len(data))):
                first = not data
                data += chunk
                if len(data) > limit:  # one byte past the limit: it goes on
                    raise _too_large(path, limit, None)
                if first:
                    _check_start(path, data, encoding)
    except PermissionError:
        raise PermissionError(
            f"{path}: cannot read it (permission denied); make it readable or "
            "copy it somewhere you can read."
        ) from None
    return data


def _check_start(path: str, data: bytearray, encoding: str) -> None:
    """Refuse a binary file, or a start that is not text in ``encoding`` or
    holds a NUL, before the rest of the file is read."""
    for magic, what in _BINARY.items():
        if data.startswith(magic):
            raise _fail(path, f"not a CSV file but {what}.")
    utf8 = codecs.lookup(encoding).name == "utf-8"
    decoder = codecs.getincrementaldecoder("utf-8-sig" if utf8 else encoding)()
    try:
        start = decoder.decode(bytes(data), final=False)  # a split character waits
    except UnicodeDecodeError as error:
        raise _decoding_error(path, data, encoding, error) from None
    _check_text(path, start, encoding)


def read_text(path: str, encoding: str = "utf-8", max_bytes: int | None = None) -> str:
    """The text of a score file, refused with the file, the line and the fix
    when it is too large, binary, not in ``encoding`` or empty.

    ``max_bytes``: the input limit (None: :func:`input_limit`). A UTF-8
    byte-order mark is dropped.

    Examples
    --------
    >>> read_text("/dev/zero")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: /dev/zero, line 1: a NUL character: this is not utf-8 CSV text ...
    """
    limit = input_limit() if max_bytes is None else max_bytes
    data = _read_limited(path, encoding, limit)
    utf8 = codecs.lookup(encoding).name == "utf-8"
    try:
        # utf-8-sig: the byte-order mark spreadsheets write is not a name
        text = data.decode("utf-8-sig" if utf8 else encoding)
    except UnicodeDecodeError as error:
        raise _decoding_error(path, data, encoding, error) from None
    del data
    _check_text(path, text, encoding)
    if not text.strip():
        raise _fail(
            path,
            "the file is empty; a score CSV has a header row (the case column, "
            "then one column per algorithm) and one row of scores per case.",
        )
    return text
