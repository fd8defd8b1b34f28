#!/usr/bin/env bash
# Writes the TLS fixtures of the tests into test/fixtures/tls/ (test/helpers/tls-fixtures.ts reads them).
# Test-only keys: nothing outside the tests trusts this CA. Run it again to renew them all; the
# tests need openssl only for this, not to run.
#
#   ca.pem          the test CA (give it to the action as NODE_EXTRA_CA_CERTS)
#   ca-key.pem      its key
#   leaf-key.pem    the key of every certificate below
#   server.pem      signed by the CA for 127.0.0.1, localhost and tracker.test, valid 2025-2125
#   expired.pem     the same names, signed by the CA, valid only in 2000
#   wrong-host.pem  signed by the CA for other-host.test only
#   self-signed.pem the same names as server.pem, signed by its own key, not by the CA
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/test/fixtures/tls"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fixed dates, so that a clock a little behind does not see a certificate from the future.
valid_from=20250101000000Z
valid_to=21250101000000Z
names='IP:127.0.0.1,DNS:localhost,DNS:tracker.test'

# `openssl ca` rather than `req -x509` / `x509 -req`: it takes explicit start and end dates.
cat >"$work/ca.cnf" <<CONFIG
[ca]
default_ca = test_ca
[test_ca]
database = $work/index.txt
new_certs_dir = $work
serial = $work/serial
default_md = sha256
policy = any_name
unique_subject = no
email_in_dn = no
[any_name]
commonName = supplied
CONFIG
touch "$work/index.txt"
echo 1000 >"$work/serial"

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# sign NAME KEY SIGNER COMMON_NAME START END EXTENSION...: NAME.pem for KEY's request, signed with
# SIGNER: ca (by ca.pem's key) or self (by KEY itself).
sign() {
  local name=$1 key=$2 signer=$3 cn=$4 start=$5 end=$6
  shift 6
  printf '[ext]\n' >"$work/$name.ext"
  printf '%s\n' "$@" >>"$work/$name.ext"
  openssl req -new -key "$key" -subj "/CN=$cn" -out "$work/$name.csr"
  local by=(-cert "$out/ca.pem" -keyfile "$out/ca-key.pem")
  if [ "$signer" = self ]; then by=(-selfsign -keyfile "$key"); fi
  openssl ca -batch -notext -config "$work/ca.cnf" "${by[@]}" -startdate "$start" -enddate "$end" \
    -extfile "$work/$name.ext" -extensions ext -in "$work/$name.csr" -out "$out/$name.pem" 2>/dev/null
}

leaf=('basicConstraints = critical,CA:FALSE' 'keyUsage = critical,digitalSignature'
  'extendedKeyUsage = serverAuth' 'subjectKeyIdentifier = hash')
by_ca='authorityKeyIdentifier = keyid'

key "$out/ca-key.pem"
key "$out/leaf-key.pem"
sign ca "$out/ca-key.pem" self 'report-deployment test CA' "$valid_from" "$valid_to" \
  'basicConstraints = critical,CA:TRUE' 'keyUsage = critical,keyCertSign,cRLSign' 'subjectKeyIdentifier = hash'
sign server "$out/leaf-key.pem" ca tracker.test "$valid_from" "$valid_to" \
  "${leaf[@]}" "$by_ca" "subjectAltName = $names"
sign expired "$out/leaf-key.pem" ca tracker.test 20000101000000Z 20001231000000Z \
  "${leaf[@]}" "$by_ca" "subjectAltName = $names"
sign wrong-host "$out/leaf-key.pem" ca other-host.test "$valid_from" "$valid_to" \
  "${leaf[@]}" "$by_ca" 'subjectAltName = DNS:other-host.test'
sign self-signed "$out/leaf-key.pem" self tracker.test "$valid_from" "$valid_to" \
  "${leaf[@]}" "subjectAltName = $names"

ls "$out"
