import { useFlags } from 'launchdarkly-react-client-sdk';

export function CheckoutBanner() {
  const { newCheckout } = useFlags();
  if (!newCheckout) return null;
  return <div className="banner">Try the new checkout</div>;
}
