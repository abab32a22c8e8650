-- Neovim headless (0.7+, Debian's package) starts `servicespec lsp --stdio`, attaches it to the open buffer, waits
-- for its diagnostics and writes them as JSON: test/lsp/lsp-neovim.test.ts runs it.
local root = os.getenv('SERVICESPEC_ROOT')
local out = os.getenv('NVIM_LSP_OUT')
local client_id = vim.lsp.start_client({
  name = 'servicespec',
  cmd = { os.getenv('NODE'), '--import', os.getenv('TSX_LOADER'), root .. '/src/cli/cli-main.ts', 'lsp', '--stdio' },
  root_dir = vim.fn.getcwd(),
})
vim.lsp.buf_attach_client(0, client_id)
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local result = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(result, { code = d.code, lnum = d.lnum, col = d.col, severity = d.severity, message = d.message })
end
local f = io.open(out, 'w')
f:write(vim.fn.json_encode({ ok = ok, diagnostics = result }))
f:close()
vim.lsp.stop_client(client_id)
vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd('qall!')
