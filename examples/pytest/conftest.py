# The cua-contract pytest plugin: installed with pip (`python3 -m pip install
# ./node_modules/cua-contract/integrations/pytest`), pytest loads it through its entry point;
# otherwise it is taken from the checkout or npm package this example sits in.
import os
import sys

try:
    import cua_contract_pytest  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "integrations", "pytest"))
    pytest_plugins = ["cua_contract_pytest.plugin"]
