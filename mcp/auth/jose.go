package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
)

// The JOSE needs of an OAuth client are small: compact JWS signatures
// (client assertions, DPoP proofs) with ES256/384/512 and RS256, and the
// public key as a JWK. They are written here on the standard library.

var b64 = base64.RawURLEncoding

// ParsePrivateKeyPEM reads an EC or RSA private key from PEM (PKCS #8,
// SEC 1 "EC PRIVATE KEY" or PKCS #1 "RSA PRIVATE KEY"), as used for
// private_key_jwt client authentication.
func ParsePrivateKeyPEM(data []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("auth: no PEM block in the private key")
	}
	var key any
	var err error
	switch block.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("auth: private key: %w", err)
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		return k, nil
	case *rsa.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("auth: private key of type %T: only EC and RSA keys sign here", key)
}

// signingAlg returns the JWS algorithm for key: ES256/ES384/ES512 by
// curve, RS256 for RSA.
func signingAlg(key crypto.Signer) (string, error) {
	switch k := key.Public().(type) {
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return "ES256", nil
		case elliptic.P384():
			return "ES384", nil
		case elliptic.P521():
			return "ES512", nil
		}
		return "", errors.New("auth: unsupported EC curve")
	case *rsa.PublicKey:
		return "RS256", nil
	}
	return "", fmt.Errorf("auth: cannot sign with a %T key", key.Public())
}

// signJWT returns the compact JWS of claims under header, signed with
// key; header gains "alg".
func signJWT(key crypto.Signer, header, claims map[string]any) (string, error) {
	alg, err := signingAlg(key)
	if err != nil {
		return "", err
	}
	header["alg"] = alg
	h, err := json.Marshal(header)
	if err != nil {
		return "", err
	}
	c, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
	sig, err := signJWS(key, alg, []byte(input))
	if err != nil {
		return "", err
	}
	return input + "." + b64.EncodeToString(sig), nil
}

// signJWS signs input as JWS algorithm alg wants: ECDSA as the fixed-size
// concatenation R||S, RSA as PKCS #1 v1.5.
func signJWS(key crypto.Signer, alg string, input []byte) ([]byte, error) {
	switch alg {
	case "ES256", "RS256":
		d := sha256.Sum256(input)
		return finishSig(key, alg, d[:], crypto.SHA256)
	case "ES384":
		d := sha512.Sum384(input)
		return finishSig(key, alg, d[:], crypto.SHA384)
	case "ES512":
		d := sha512.Sum512(input)
		return finishSig(key, alg, d[:], crypto.SHA512)
	}
	return nil, fmt.Errorf("auth: unsupported JWS algorithm %s", alg)
}

func finishSig(key crypto.Signer, alg string, digest []byte, h crypto.Hash) ([]byte, error) {
	if ec, ok := key.(*ecdsa.PrivateKey); ok {
		r, s, err := ecdsa.Sign(rand.Reader, ec, digest)
		if err != nil {
			return nil, err
		}
		size := (ec.Curve.Params().BitSize + 7) / 8
		out := make([]byte, 2*size)
		r.FillBytes(out[:size])
		s.FillBytes(out[size:])
		return out, nil
	}
	if alg[0] == 'E' {
		return nil, errors.New("auth: ES algorithms need an *ecdsa.PrivateKey")
	}
	return key.Sign(rand.Reader, digest, h)
}

// publicJWK returns the public half of key as a JWK (RFC 7517), members
// in the order RFC 7638 thumbprints use.
func publicJWK(key crypto.Signer) (map[string]any, error) {
	switch k := key.Public().(type) {
	case *ecdsa.PublicKey:
		size := (k.Curve.Params().BitSize + 7) / 8
		ecdh, err := k.ECDH()
		if err != nil {
			return nil, err
		}
		raw := ecdh.Bytes() // 0x04 || X || Y
		return map[string]any{"crv": k.Curve.Params().Name, "kty": "EC",
			"x": b64.EncodeToString(raw[1 : 1+size]), "y": b64.EncodeToString(raw[1+size:])}, nil
	case *rsa.PublicKey:
		return map[string]any{"e": b64.EncodeToString(big.NewInt(int64(k.E)).Bytes()), "kty": "RSA",
			"n": b64.EncodeToString(k.N.Bytes())}, nil
	}
	return nil, fmt.Errorf("auth: no JWK for a %T key", key.Public())
}

// randomString returns n random bytes, base64url-encoded.
func randomString(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return b64.EncodeToString(b)
}

// b64std is standard base64 with padding, as HTTP Basic wants.
func b64std(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
