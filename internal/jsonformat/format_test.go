package jsonformat_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
)

// formatCases are edge cases of each format, from its specification, and
// the places where the library (whose verdict is the one kept) departs from
// it, marked "library:".
var formatCases = map[string]struct{ valid, invalid []string }{
	"json-pointer": {
		valid:   []string{"", "/", "/foo", "/foo/0", "//", "/a~1b", "/m~0n", "/ ", "/%25", "/é", "/~01", "/a\x00b", "/~0~1~0"},
		invalid: []string{"foo", "#/foo", "/~", "/~2", "/a~", "/~/", "~0", "/~0~2"},
	},
	"relative-json-pointer": {
		valid:   []string{"0", "1/0", "0#", "2/highly/nested", "10/x~1y", "0/"},
		invalid: []string{"", "/foo", "-1", "01", "00#", "1#/", "#", "0##", "1~", "+1/0", "0-1"},
	},
	"uuid": {
		valid:   []string{"2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
		invalid: []string{"2eb8aa08-aa98-11ea-b4aa-73b441d1638", "2eb8aa08aa9811eab4aa73b441d16380", "2eb8aa08-aa98-11ea-73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638g", "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}", "2eb8aa0-8aa98-11ea-b4aa-73b441d16380", "2eb8aa08-aa98-11ea-b4aa_73b441d16380"},
	},
	"duration": {
		valid:   []string{"P4DT12H30M5S", "P4Y", "PT0S", "P0D", "P1M", "PT1M", "PT36H", "P1Y2M3DT4H5M6S", "P2W", "P0W", "P1Y3D", "PT1H5S"}, // library: "P1Y3D", "PT1H5S" skip an element
		invalid: []string{"", "P", "PT", "P1YT", "4DT12H30M5S", "P1", "PT1", "P1D2Y", "PT1S2H", "P1.5Y", "P-1D", "P1W2D", "PW", "P1Y1W", "PT1W", "p1D", "P1DT1HT1M", "P1H", "PT1D", "P1Y1Y"},
	},
	"period": {
		valid:   []string{"1963-06-19T08:30:06Z/1963-06-20T08:30:06Z", "1963-06-19T08:30:06Z/P1D", "P1D/1963-06-19T08:30:06Z", "P1Y2M/1963-06-19T08:30:06+01:00"},
		invalid: []string{"", "/", "1963-06-19T08:30:06Z", "P1D/P1D", "1963-06-19/1963-06-20", "P1D/", "1963-06-19T08:30:06Z/P", "1963-06-19T08:30:06Z/1963-06-20T08:30:06Z/P1D"},
	},
	"ipv4": {
		valid:   []string{"0.0.0.0", "192.168.0.1", "255.255.255.255", "1.2.3.4", "+1.2.3.4", "-0.1.2.3", "+001.2.3.4"}, // library: signs, as strconv.Atoi reads them
		invalid: []string{"", "256.0.0.0", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04", "1..3.4", "1.2.3.4.", "a.b.c.d", "-1.2.3.4", " 1.2.3.4", "1.2.3.4 ", "0x7f.0.0.1", "١.2.3.4"},
	},
	"ipv6": {
		valid:   []string{"::1", "::", "2001:db8::1", "1:2:3:4:5:6:7:8", "fe80::1", "::ffff:192.168.0.1", "1::8", "1:2:3:4:5:6:7::", "ABCD:EF01:2345:6789:ABCD:EF01:2345:6789", "1:2:3:4:5:6:1.2.3.4"},
		invalid: []string{"", "1.2.3.4", ":", ":::", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::1", "fe80::1%eth0", "::ffff:192.168.0.01", "g::1", "[::1]", " ::1", "1:2:3:4:5:6:7:1.2.3.4"},
	},
	"hostname": {
		valid:   []string{"example.com", "a", "a.b.c", "xn--nxasmq6b.com", "1.2.3.4", "123", "example.com.", "a-b.c", strings.Repeat("a", 63) + ".com", strings.Repeat("a.", 126) + "a"},
		invalid: []string{"", ".", "a..b", "-a.com", "a-.com", "a_b.com", "ex ample.com", "éxample.com", strings.Repeat("a", 64) + ".com", strings.Repeat("a.", 126) + "ab", "a.com..", ".a.com"},
	},
	"email": {
		valid:   []string{"joe@example.com", "a.b@c.d", "joe+tag@example.com", "!#$%&'*+-/=?^_`{|}~@example.com", `"joe bloggs"@example.com`, `"a@b"@example.com`, "joe@[192.168.0.1]", "joe@[IPv6:2001:db8::1]", "@example.com", `""@example.com`}, // library: "@example.com" has an empty local part
		invalid: []string{"", "joe", "joe@", "@", ".joe@example.com", "joe.@example.com", "jo..e@example.com", "jo e@example.com", `"jo\"e"@example.com`, `"jo\e"@example.com`, "joe@-example.com", "joe@[300.0.0.1]", "joe@[IPv6:1.2.3.4]", "joe@[2001:db8::1]", "joé@example.com", `"@example.com`, strings.Repeat("a", 65) + "@example.com", "joe@" + strings.Repeat("a.", 125) + "com"},
	},
	"date": {
		valid:   []string{"1963-06-19", "2020-02-29", "2000-02-29", "0000-01-01", "9999-12-31", "2021-04-30"},
		invalid: []string{"", "1963-6-19", "1963-06-1", "19630619", "2021-02-29", "1900-02-29", "2021-04-31", "2021-13-01", "2021-00-01", "2021-01-00", "2021-01-32", "+963-06-19", "1963-06-19T00:00:00Z", "1963/06/19", "1963-06-19 ", "１９６３-06-19"},
	},
	"time": {
		valid:   []string{"08:30:06Z", "08:30:06z", "08:30:06.283185Z", "08:30:06+01:00", "08:30:06-08:00", "23:59:60Z", "00:59:60+01:00", "15:59:60-08:00", "00:00:00+23:59", "+8:30:06Z", "-0:30:06Z"}, // library: signed fields, as strconv.Atoi reads them
		invalid: []string{"", "08:30:06", "8:30:06Z", "08:30Z", "24:00:00Z", "08:60:00Z", "08:30:61Z", "08:30:60Z", "23:59:60+01:00", "08:30:06.Z", "08:30:06+1:00", "08:30:06+01:0", "08:30:06+0100", "08:30:06+24:00", "08:30:06+01:60", "08:30:06 Z", "08:30:06ZZ", "-1:30:06Z", "08:30:06 +01:00", "08.30.06Z"},
	},
	"date-time": {
		valid:   []string{"1963-06-19T08:30:06Z", "1963-06-19t08:30:06.283185z", "1990-12-31T23:59:60Z", "1990-12-31T15:59:60-08:00", "1963-06-19T08:30:06+01:00"},
		invalid: []string{"", "1963-06-19", "1963-06-19 08:30:06Z", "1963-06-19T08:30:06", "1963-06-19T08:30Z", "1963-02-30T08:30:06Z", "1963-06-19T25:30:06Z", "1990-12-31T23:59:60+01:00", "1963-06-19X08:30:06Z", "06/19/1963 08:30:06 PST"},
	},
	"uri": {
		valid:   []string{"http://example.com", "https://example.com/a/b?c=d#e", "urn:isbn:0451450523", "mailto:joe@example.com", "file:///etc/hosts", "http://[::1]:8080/", "http://[2001:db8::7]/c=GB", "a:", "tel:+1-816-555-1212", "http://example.com/a b"},
		invalid: []string{"", "//example.com", "/a/b", "example.com", "1http://x", ":x", "http://[::1%25eth0]/", "http://::1/", "http://[fe80::1/", "http://a b.com/", "http://example.com/%zz", "http://example.com:abc/", "http://example.com/\x7f", "#f", "?q", "http://a:b:80/"},
	},
	"iri": {
		valid:   []string{"http://ƒøø.ßår/?∂éœ=πîx#πîüx", "http://例え.テスト/", "urn:例"},
		invalid: []string{"/abc", "http://[::1%25eth0]/", "例"},
	},
	"uri-reference": {
		valid:   []string{"", "/a/b", "a/b", "?q", "#f", "//example.com", "http://example.com", "../x", ".", "a:b:c%zz"}, // library: net/url leaves an opaque part unchecked
		invalid: []string{`\\WINDOWS\fileshare`, `a\b`, "/a/%zz", "http://[::1%25eth0]/", "%zz", "1:a", "http://a b/", "#%zz"},
	},
	"iri-reference": {
		valid:   []string{"http://ƒøø.ßår/?∂éœ=πîx#πîüx", "//ƒøø.ßår/?∂éœ=πîx#πîüx", "#ƒrägmênt"},
		invalid: []string{`\\WINDOWS\filëßåré`, "#ƒräg\\mênt", "%zz"},
	},
	"uri-template": {
		valid:   []string{"http://example.com/dictionary/{term:1}/{term}", "http://example.com/dictionary", "dictionary/{term:1}/{term}", "/{a}{b}/c", "http://e.com/{x}?q={y}", "http://e.com/a?{{", "/{a%7D", "/%7ba%7d{b}", "/%7B%7B"}, // library: braces outside the path, or in a path already in net/url's escaping ("/%7B%7B"), are not checked
		invalid: []string{"http://example.com/dictionary/{term:1}/{term", "/{{a}}", "/}a{", "/{a", "http://e.com/%zz{", "http://[::1%25x]/{a}", "http://e.com/a}/{b}", "/%7B%7B|", "/{%7b}"},
	},
	"semver": {
		valid:   []string{"1.0.0", "0.0.0", "10.20.30", "1.1.2-prerelease+meta", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7", "1.0.0-x.7.z.92", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85", "1.0.0+21AF26D3----117B344092BD", "1.0.0-alpha-a.b-c", "1.0.0-0a", "1.0.0+001"},
		invalid: []string{"", "1", "1.2", "1.2.3.4", "01.1.1", "1.01.1", "1.1.01", "1.2.3-0123", "1.2.3-", "1.2.3+", "1.2.3-a..b", "1.2.3+a..b", "1.2.3-a_b", "v1.2.3", "1.2.3+a+b", "-1.2.3", "1.2.-3", "1.2.3 ", "١.2.3"},
	},
	"regex": {
		valid:   []string{"", "^a+$", `\d{3}`, "(?i)abc", "[a-z]", `\p{L}`},
		invalid: []string{"(", "[a-", "a{2,1}", "*", `\`, "(?<", `\8`},
	},
}

func TestEachFormatAcceptsAndRefusesItsSpecificationsEdgeCases(t *testing.T) {
	for name, tc := range formatCases {
		f := jsonformat.Lookup(name)
		require.NotNil(t, f, name)
		for _, s := range tc.valid {
			assert.NoError(t, f.Validate(s), "%s: %q", name, s)
		}
		for _, s := range tc.invalid {
			assert.Error(t, f.Validate(s), "%s: %q", name, s)
		}
	}
}

func TestLookupKnowsEveryFormatTheLibraryAssertsAndNoOther(t *testing.T) {
	for name := range formatCases {
		f := jsonformat.Lookup(name)
		require.NotNil(t, f, name)
		assert.Equal(t, name, f.Name)
	}
	for _, name := range []string{"", "byte", "int32", "idn-email", "idn-hostname", "iri-template", "URI", "unknown"} {
		assert.Nil(t, jsonformat.Lookup(name), name)
	}
}

func TestValuesOtherThanStringsAreValidForEveryFormat(t *testing.T) {
	for name := range formatCases {
		f := jsonformat.Lookup(name)
		for _, v := range []any{nil, true, json.Number("1"), []any{"x"}, map[string]any{"a": "("}} {
			assert.NoError(t, f.Validate(v), "%s: %v", name, v)
		}
	}
}

func TestAnInvalidValueIsRefusedWithTheFormatsName(t *testing.T) {
	err := jsonformat.Lookup("uri").Validate("/relative")
	require.Error(t, err)
	assert.Equal(t, "not a valid uri: no scheme", err.Error())
}
