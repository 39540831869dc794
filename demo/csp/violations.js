// Records CSP and Trusted Types violations so a person (or the end-to-end test) can see there are none.
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  const li = document.createElement('li');
  li.textContent = `${e.violatedDirective}: ${e.blockedURI || e.sample}`;
  const list = document.getElementById('violations');
  list.hidden = false;
  list.append(li);
});
