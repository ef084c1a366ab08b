package admin

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/importer"
)

// DefaultMaxImportBytes caps one uploaded import file unless
// AdminDeps.MaxImportBytes says otherwise (Apple exports can be large).
const DefaultMaxImportBytes int64 = 2 << 30

// maxFieldBytes caps a plain form field of a multipart upload.
const maxFieldBytes = 4 << 10

// upload is an import file received from the browser: its fields and the
// file, readable at random (the importer reads zips in place).
type upload struct {
	fields map[string]string
	name   string
	size   int64
	file   interface {
		io.ReaderAt
		io.Closer
	}
	tmp string // temporary copy to remove, if one was made
}

// close releases the file and removes the temporary copy.
func (u *upload) close() {
	if u.file != nil {
		_ = u.file.Close()
	}
	if u.tmp != "" {
		_ = os.Remove(u.tmp)
	}
}

func (s *importPages) maxImportBytes() int64 {
	if n := s.maxImport; n > 0 {
		return n
	}
	return DefaultMaxImportBytes
}

// fileName keeps the base name of an uploaded file, bounded and printable.
func fileName(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, name)
	if name == "." || name == "/" || name == "" {
		name = "upload"
	}
	if utf8.RuneCountInString(name) > 120 {
		name = string([]rune(name)[:120])
	}
	return name
}

func tooLarge(max int64) error {
	return apperr.New(apperr.TooLarge, "the file is larger than the %s limit", importer.FormatBytes(max))
}

// receiveUpload reads a multipart upload with the file in field fileField.
// The body is streamed: the file goes straight to a temporary file under
// AdminDeps.UploadDir, at most maxImportBytes. A form the CSRF check
// already parsed (plain form posts) is used as it is.
func (s *importPages) receiveUpload(c echo.Context, fileField string) (*upload, error) {
	r := c.Request()
	max := s.maxImportBytes()
	u := &upload{fields: map[string]string{}}
	if mf := r.MultipartForm; mf != nil {
		for k, v := range mf.Value {
			if len(v) > 0 {
				u.fields[k] = v[0]
			}
		}
		if fhs := mf.File[fileField]; len(fhs) > 0 && fhs[0].Size > 0 {
			if fhs[0].Size > max {
				return u, tooLarge(max)
			}
			f, err := fhs[0].Open()
			if err != nil {
				return u, fmt.Errorf("admin: open upload: %w", err)
			}
			u.file, u.name, u.size = f, fileName(fhs[0].Filename), fhs[0].Size
		}
		return u, nil
	}
	r.Body = http.MaxBytesReader(c.Response(), r.Body, max+1<<20)
	mr, err := r.MultipartReader()
	if err != nil {
		return u, apperr.Invalidf("send the file as a multipart form upload")
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return u, nil
		}
		if err != nil {
			return u, uploadError(err, max)
		}
		if part.FormName() == fileField && part.FileName() != "" && u.file == nil {
			if err := s.saveUpload(u, part, max); err != nil {
				return u, err
			}
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
		if err != nil {
			return u, uploadError(err, max)
		}
		if len(b) > maxFieldBytes {
			return u, apperr.Invalidf("form field %s is too long", part.FormName())
		}
		u.fields[part.FormName()] = string(b)
	}
}

func uploadError(err error, max int64) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(max)
	}
	return apperr.Invalidf("the upload was cut off; please try again")
}

// saveUpload copies the file part to a temporary file.
func (s *importPages) saveUpload(u *upload, part *multipart.Part, max int64) error {
	dir := s.uploadDir
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("admin: upload directory: %w", err)
		}
	}
	f, err := os.CreateTemp(dir, "hearth-import-*")
	if err != nil {
		return fmt.Errorf("admin: upload: %w", err)
	}
	u.file, u.tmp, u.name = f, f.Name(), fileName(part.FileName())
	n, err := io.Copy(f, io.LimitReader(part, max+1))
	if err != nil {
		return uploadError(err, max)
	}
	if n > max {
		return tooLarge(max)
	}
	u.size = n
	return nil
}

// liftDeadlines lets a long upload and its streamed answer outlast the
// server's read and write timeouts.
func liftDeadlines(c echo.Context) {
	rc := http.NewResponseController(c.Response())
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
}
