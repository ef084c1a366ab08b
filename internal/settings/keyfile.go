package settings

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// KeyFileName is the secret file in the data directory.
const KeyFileName = "secret.key"

// keySize is secret.key's length and the AES-256 key's.
const keySize = 32

// hkdfInfo names what the derived key is for, so the same secret file
// could key something else without sharing this key.
const hkdfInfo = "hearth settings secrets v1"

// ErrKeyFile marks a secret.key Hearth will not use (readable by others,
// the wrong size, unreadable); its message says what to do.
var ErrKeyFile = errors.New("settings: secret key file")

// loadKey reads path, creating it first when missing, and returns the
// AEAD keyed from it.
func loadKey(path string) (cipher.AEAD, error) {
	secret, err := readKeyFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		secret, err = createKeyFile(path)
		if errors.Is(err, fs.ErrExist) { // another process made it first
			secret, err = readKeyFile(path)
		}
	}
	if err != nil {
		return nil, err
	}
	key, err := hkdf.Key(sha256.New, secret, nil, hkdfInfo, keySize)
	if err != nil {
		return nil, fmt.Errorf("settings: derive key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	return cipher.NewGCM(block)
}

// readKeyFile reads an existing secret.key, refusing one that group or
// others may read: whoever reads it can decrypt every saved token.
func readKeyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrKeyFile, path, err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("%w %s has mode %04o, so other users may read it and decrypt saved tokens: "+
			"run chmod 600 %s (and check who could have read it)", ErrKeyFile, path, perm, path)
	}
	if !st.Mode().IsRegular() || st.Size() != keySize {
		return nil, fmt.Errorf("%w %s is not a %d-byte file: restore it, or move it away to start over "+
			"(saved tokens must then be entered again)", ErrKeyFile, path, keySize)
	}
	secret := make([]byte, keySize)
	if _, err := io.ReadFull(f, secret); err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrKeyFile, path, err)
	}
	return secret, nil
}

// createKeyFile writes a new random secret.key, mode 0600, failing with
// fs.ErrExist when it is already there (O_EXCL: never overwrite one).
func createKeyFile(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	secret := make([]byte, keySize)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = f.Write(secret)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path) // a half-written key would lock every later secret out
		return nil, fmt.Errorf("settings: write %s: %w", path, err)
	}
	return secret, nil
}
