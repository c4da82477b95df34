import ipaddress

from engine.vote.address import candidates, choose_address, ordered


def test_loopback_and_what_is_not_ipv4_are_left_out_and_private_ranges_come_first():
    found = ordered(["127.0.0.1", "169.254.1.2", "8.8.8.8", "192.168.1.3", "::1", "fe80::1", "not an address",
                     "10.0.0.1", "192.168.1.3", "0.0.0.0", "224.0.0.1", "172.16.4.4"])
    assert found == ["192.168.1.3", "10.0.0.1", "172.16.4.4", "8.8.8.8", "169.254.1.2"]
    assert ordered(["127.0.0.1", "127.1.2.3", "::1"]) == []


def test_the_machine_s_own_candidates_are_never_loopback():
    found = candidates()
    assert all(not ipaddress.ip_address(a).is_loopback for a in found)
    assert choose_address() == (found[0] if found else None)
