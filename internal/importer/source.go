package importer

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// openSource returns the bytes to parse and their size (for progress). A zip
// is opened in place and its export.xml read; *kind becomes KindApple for a
// zip or, when auto-detecting, for anything that starts like XML. What is
// read may not exceed maxBytes, nor a zip unpack at a bomb's ratio.
func openSource(r io.ReaderAt, size int64, kind *Kind, maxBytes int64) (io.ReadCloser, int64, error) {
	if size > maxBytes {
		return nil, 0, Problem{Message: fmt.Sprintf("the file is larger than %s, the import limit (HEARTH_IMPORT_MAX_BYTES)", sizeText(maxBytes))}
	}
	head := make([]byte, 512)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, err
	}
	head = head[:n]
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		if kind.isCSV() { // a zip of CSV files is read file by file before this (zip.go)
			return nil, 0, Problem{Message: "this is a zip file with no CSV file in it that Hearth can read"}
		}
		*kind = KindApple
		return openZip(r, size, maxBytes)
	}
	if *kind == KindAuto && looksLikeXML(head) {
		*kind = KindApple
	}
	return io.NopCloser(io.NewSectionReader(r, 0, size)), size, nil
}

func looksLikeXML(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) > 0 && head[0] == '<'
}

// openZip opens the export in an Apple Health export.zip (appleEntry). A
// zip of CSV files comes here only when the Apple kind was chosen (else
// Import reads its files one by one, zip.go).
func openZip(r io.ReaderAt, size, maxBytes int64) (io.ReadCloser, int64, error) {
	zr, err := newZipReader(r, size)
	if err != nil {
		return nil, 0, err
	}
	pick := appleEntry(zr)
	if pick == nil {
		if files, _ := zipCSVs(zr); len(files) > 0 {
			return nil, 0, Problem{Message: fmt.Sprintf("the zip holds CSV files (%s, …), not an Apple Health export: "+
				"import it as \"detect from the file\" (--kind auto) to import each CSV file", zipLabel(path.Base(files[0].Name)))}
		}
		return nil, 0, Problem{Message: "the zip holds no Apple Health export (apple_health_export/export.xml)"}
	}
	if pick.UncompressedSize64 > uint64(maxBytes) {
		return nil, 0, Problem{Message: fmt.Sprintf("%s unpacks to more than %s, the import limit (HEARTH_IMPORT_MAX_BYTES)", pick.Name, sizeText(maxBytes))}
	}
	rc, err := pick.Open()
	if err != nil {
		return nil, 0, Problem{Message: "cannot read " + pick.Name + " in the zip: " + err.Error()}
	}
	// The sizes a zip declares can lie: the limits hold for what comes out.
	capped := &capReader{r: rc, max: maxBytes, compressed: max(pick.CompressedSize64, 1)}
	return readCloser{capped, rc}, int64(pick.UncompressedSize64), nil
}

// appleEntry finds the export in an export.zip: apple_health_export/export.xml,
// or else the largest .xml file at most one folder deep that is not the
// clinical export_cda.xml (localised exports name the file differently).
func appleEntry(zr *zip.Reader) *zip.File {
	var pick *zip.File
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, "/")
		if f.FileInfo().IsDir() || !strings.EqualFold(path.Ext(name), ".xml") || strings.Count(name, "/") > 1 {
			continue
		}
		if name == "apple_health_export/export.xml" || name == "export.xml" {
			pick = f
			break
		}
		if strings.Contains(strings.ToLower(path.Base(name)), "cda") {
			continue
		}
		if pick == nil || f.UncompressedSize64 > pick.UncompressedSize64 {
			pick = f
		}
	}
	return pick
}

// readCloser reads through a wrapper and closes the original.
type readCloser struct {
	io.Reader
	io.Closer
}

// isZipDamage reports errors from reading a corrupt compressed stream.
func isZipDamage(err error) bool {
	var ce flate.CorruptInputError
	return errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrAlgorithm) ||
		errors.As(err, &ce) || errors.Is(err, io.ErrUnexpectedEOF)
}
