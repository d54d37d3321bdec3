package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSignJWTWithEveryKeyKind(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	p521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	for _, tt := range []struct {
		key crypto.Signer
		alg string
	}{{p256, "ES256"}, {p384, "ES384"}, {p521, "ES512"}, {rsaKey, "RS256"}} {
		t.Run(tt.alg, func(t *testing.T) {
			jws, err := signJWT(tt.key, map[string]any{"typ": "JWT"}, map[string]any{"sub": "x"})
			require.NoError(t, err)
			parts := strings.Split(jws, ".")
			require.Len(t, parts, 3)
			sig, err := b64.DecodeString(parts[2])
			require.NoError(t, err)
			input := []byte(parts[0] + "." + parts[1])
			switch k := tt.key.(type) {
			case *ecdsa.PrivateKey:
				var digest []byte
				switch tt.alg {
				case "ES256":
					d := sha256.Sum256(input)
					digest = d[:]
				case "ES384":
					d := sha512.Sum384(input)
					digest = d[:]
				default:
					d := sha512.Sum512(input)
					digest = d[:]
				}
				n := len(sig) / 2
				assert.True(t, ecdsa.Verify(&k.PublicKey, digest, new(big.Int).SetBytes(sig[:n]), new(big.Int).SetBytes(sig[n:])))
			case *rsa.PrivateKey:
				d := sha256.Sum256(input)
				assert.NoError(t, rsa.VerifyPKCS1v15(&k.PublicKey, crypto.SHA256, d[:], sig))
			}
			jwk, err := publicJWK(tt.key)
			require.NoError(t, err)
			assert.NotEmpty(t, jwk["kty"])
		})
	}
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	_, err = signJWT(edKey, map[string]any{}, map[string]any{})
	assert.Error(t, err, "Ed25519 is not offered")
	_, err = publicJWK(edKey)
	assert.Error(t, err)
	p224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	_, err = signJWT(p224, map[string]any{}, map[string]any{})
	assert.Error(t, err, "P-224 has no JWS algorithm")
}

func TestParsePrivateKeyPEM(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rk, _ := rsa.GenerateKey(rand.Reader, 1024)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	sec1, _ := x509.MarshalECPrivateKey(ec)
	pkcs8ed, _ := x509.MarshalPKCS8PrivateKey(ed)
	pkcs8rsa, _ := x509.MarshalPKCS8PrivateKey(rk)
	enc := func(typ string, b []byte) []byte { return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b}) }
	for _, tt := range []struct {
		name string
		pem  []byte
		ok   bool
	}{
		{"SEC 1", enc("EC PRIVATE KEY", sec1), true},
		{"PKCS #1", enc("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rk)), true},
		{"PKCS #8 RSA", enc("PRIVATE KEY", pkcs8rsa), true},
		{"PKCS #8 Ed25519", enc("PRIVATE KEY", pkcs8ed), false},
		{"not PEM", []byte("hello"), false},
		{"broken DER", enc("PRIVATE KEY", []byte{1, 2, 3}), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k, err := ParsePrivateKeyPEM(tt.pem)
			if tt.ok {
				require.NoError(t, err)
				assert.NotNil(t, k)
			} else {
				assert.Error(t, err)
			}
		})
	}
}

func TestApplicationType(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080/cb":      "native",
		"http://localhost/cb":           "native",
		"http://[::1]:9/cb":             "native",
		"com.example.app:/oauth":        "native",
		"https://app.example.com/cb":    "web",
		"http://app.example.com:80/cb/": "web",
	} {
		assert.Equal(t, want, applicationType(in), in)
	}
}

func TestPickIssuer(t *testing.T) {
	_, err := pickIssuer(nil, "")
	assert.Error(t, err)
	got, err := pickIssuer([]string{"https://a", "https://b"}, "https://b")
	require.NoError(t, err)
	assert.Equal(t, "https://b", got)
	got, _ = pickIssuer([]string{"https://a", "https://b"}, "https://c")
	assert.Equal(t, "https://a", got)
}

func TestResourceCovers(t *testing.T) {
	for _, tt := range []struct {
		resource, target string
		want             bool
	}{
		{"https://h/mcp", "https://h/mcp", true},
		{"https://h/mcp/", "https://H/mcp", true},
		{"https://h", "https://h/mcp", true},
		{"https://h/", "https://h/mcp", true},
		{"https://h/a", "https://h/a/mcp", true},
		{"https://h/a", "https://h/ab", false},
		{"https://h:443/mcp", "https://h/mcp", true},
		{"http://h/mcp", "https://h/mcp", false},
		{"https://evil/mcp", "https://h/mcp", false},
		{"https://h/mcp?x=1", "https://h/mcp", false},
		{"not a url", "https://h/mcp", false},
	} {
		assert.Equal(t, tt.want, resourceCovers(tt.resource, tt.target), "%s covers %s", tt.resource, tt.target)
	}
}

func TestSameIssuer(t *testing.T) {
	assert.True(t, sameIssuer("https://as", "https://as"))
	assert.True(t, sameIssuer("https://as/", "https://as"), "a lone trailing slash of a path-less issuer")
	assert.False(t, sameIssuer("https://as/t/", "https://as/t"))
	assert.False(t, sameIssuer("https://AS", "https://as"))
}

// admitted tells whether s admits info, shown as token, in session sid.
func admitted(s *SessionTokens, sid string, info *TokenInfo, token string) bool {
	return s.admit(sid, info, identityOf(info, token))
}

// open records session sid as opened with info, shown as token.
func open(s *SessionTokens, sid string, info *TokenInfo, token string) {
	s.opened(sid, info, identityOf(info, token))
}

func TestSessionTokensForgetIdleSessions(t *testing.T) {
	now := time.Unix(1000, 0)
	s := NewSessionTokens(time.Minute)
	s.now = func() time.Time { return now }
	alice := &TokenInfo{Subject: "alice", ClientID: "c"}
	open(s, "old", alice, "t1")
	now = now.Add(30 * time.Second)
	assert.True(t, admitted(s, "old", alice, "t1"), "seen again: kept")
	now = now.Add(90 * time.Second)
	open(s, "new", alice, "t1") // opening a session sweeps idle ones
	assert.Nil(t, s.Get("old"))
	assert.NotNil(t, s.Get("new"))
	assert.False(t, admitted(s, "new", &TokenInfo{Subject: "alice", ClientID: "other"}, "t2"), "another client")
	assert.True(t, admitted(s, "", &TokenInfo{Subject: "bob"}, "t3"))
}

func TestSessionTokensRecordOnlySessionsTheySawOpened(t *testing.T) {
	s := NewSessionTokens(time.Minute)
	bob := &TokenInfo{Subject: "bob"}
	for i := range 1000 {
		assert.True(t, admitted(s, fmt.Sprintf("made-up-%d", i), bob, "t1"), "nothing to check an unknown id against")
	}
	assert.Empty(t, s.sessions, "made-up ids leave nothing behind")
	assert.Nil(t, s.Get("made-up-1"))
	open(s, "real", bob, "t1")
	assert.True(t, admitted(s, "real", bob, "t1"))
	assert.False(t, admitted(s, "real", &TokenInfo{Subject: "alice"}, "t2"), "a recorded session stays bound")
	assert.Len(t, s.sessions, 1)
}

func TestASessionIsBoundToTheWholeIdentityOfItsToken(t *testing.T) {
	opener := &TokenInfo{Issuer: "https://as-1", Subject: "alice", ClientID: "app"}
	nobody := &TokenInfo{Issuer: "https://as-1", Scopes: []string{"mcp"}}
	tests := []struct {
		name         string
		opened       *TokenInfo
		openedToken  string
		next         *TokenInfo
		nextToken    string
		wantAdmitted bool
	}{
		{"the same identity with a fresh token", opener, "t1", &TokenInfo{Issuer: "https://as-1", Subject: "alice", ClientID: "app", Scopes: []string{"more"}}, "t2", true},
		{"another issuer's alice", opener, "t1", &TokenInfo{Issuer: "https://as-2", Subject: "alice", ClientID: "app"}, "t1", false},
		{"another subject", opener, "t1", &TokenInfo{Issuer: "https://as-1", Subject: "bob", ClientID: "app"}, "t1", false},
		{"another client", opener, "t1", &TokenInfo{Issuer: "https://as-1", Subject: "alice", ClientID: "cli"}, "t1", false},
		{"a token that identifies no one, on an identified session", opener, "t1", nobody, "t2", false},
		{"quoting keeps issuer and subject apart", &TokenInfo{Issuer: "a\x00b", Subject: "c"}, "t1", &TokenInfo{Issuer: "a", Subject: "b\x00c"}, "t1", false},
		{"another token that identifies no one", nobody, "anon-1", &TokenInfo{Issuer: "https://as-1", Scopes: []string{"mcp"}}, "anon-2", false},
		{"an identified token on a session opened by no one", nobody, "anon-1", opener, "t1", false},
		{"the very token that identifies no one", nobody, "anon-1", nobody, "anon-1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSessionTokens(time.Minute)
			open(s, "sid", tt.opened, tt.openedToken)
			assert.Equal(t, tt.wantAdmitted, admitted(s, "sid", tt.next, tt.nextToken))
			assert.True(t, admitted(s, "sid", tt.opened, tt.openedToken), "the opener keeps its session")
		})
	}
}

func TestAnIdentityNeverCarriesTheToken(t *testing.T) {
	id := identityOf(&TokenInfo{}, "secret-token-value")
	assert.NotContains(t, id, "secret-token-value")
	assert.NotEqual(t, identityOf(&TokenInfo{}, "secret-token-valuf"), id)
}
