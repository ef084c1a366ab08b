package importer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// csvText returns the file as UTF-8 and, when it had to be transcoded, a
// note saying from what. Excel on Windows saves "Unicode text" as UTF-16
// with a byte order mark and "CSV" in the ANSI code page, which for the
// languages of these apps' users is Windows-1252 (a superset of Latin-1):
// a BOM says UTF-16; otherwise a start that is not valid UTF-8 is read as
// Windows-1252. Bytes that still do not decode later in a UTF-8 file are
// dropped from text fields and counted (text.Clean).
func csvText(r io.Reader) (io.Reader, string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, "", err
	}
	if bytes.Equal(head, []byte{0xFF, 0xFE}) || bytes.Equal(head, []byte{0xFE, 0xFF}) {
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder() // the BOM picks the byte order
		return bufio.NewReaderSize(dec.Reader(br), 64<<10), "transcoded from UTF-16", nil
	}
	sample, err := br.Peek(csvSniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, "", err
	}
	if !validUTF8Prefix(sample, err == nil) {
		return bufio.NewReaderSize(charmap.Windows1252.NewDecoder().Reader(br), 64<<10), "transcoded from Windows-1252", nil
	}
	return br, "", nil
}

// validUTF8Prefix reports whether b is valid UTF-8, allowing a sequence cut
// at the end when b is only the start of the file.
func validUTF8Prefix(b []byte, partial bool) bool {
	if partial {
		for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
			if r, _ := utf8.DecodeLastRune(b); r != utf8.RuneError {
				break
			}
			b = b[:len(b)-1]
		}
	}
	return utf8.Valid(b)
}
