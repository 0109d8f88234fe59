# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the --web-config tests after common.sh: a throw-away CA, a
# server certificate for 127.0.0.1 and a client certificate, all made
# with openssl in $tmp, and bcrypt hashes made with this system's crypt(3).
command -v openssl >/dev/null || { echo "SKIP: openssl is needed to make test certificates"; exit 77; }
if ./xgtop -b -n 1 --export 127.0.0.1:0 --web-config /dev/null --replay /dev/null 2>&1 | grep -q 'without libyaml'; then
	echo "SKIP: this xgtop was built without libyaml (libyaml-dev)"
	exit 77
fi

# cert NAME CN [CA]: NAME.key and NAME.crt, signed by CA (self-signed
# without one), with 127.0.0.1 as its address.
cert() {
	local name=$1 cn=$2 ca=$3
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$tmp/$name.key" \
		-out "$tmp/$name.csr" -subj "/CN=$cn" 2>/dev/null || fail "openssl could not make a key"
	printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:%s\n' "$([ -z "$ca" ] && echo TRUE || echo FALSE)" \
		>"$tmp/$name.ext"
	if [ -z "$ca" ]; then
		openssl x509 -req -in "$tmp/$name.csr" -signkey "$tmp/$name.key" -out "$tmp/$name.crt" \
			-days 2 -extfile "$tmp/$name.ext" 2>/dev/null
	else
		openssl x509 -req -in "$tmp/$name.csr" -CA "$tmp/$ca.crt" -CAkey "$tmp/$ca.key" \
			-CAcreateserial -out "$tmp/$name.crt" -days 2 -extfile "$tmp/$name.ext" 2>/dev/null
	fi || fail "openssl could not sign $name"
}

# bcrypt PASSWORD: a $2y$ hash of cost 10 (what htpasswd -B makes).
bcrypt() {
	python3 -c 'import ctypes, os, sys, base64
c = ctypes.CDLL("libcrypt.so.1")
c.crypt_gensalt.restype = c.crypt.restype = ctypes.c_char_p
salt = c.crypt_gensalt(b"$2y$", 10, os.urandom(16), 16)
print(c.crypt(sys.argv[1].encode(), salt).decode())' "$1"
}

cert ca testca
cert srv 127.0.0.1 ca
cert client scraper ca
