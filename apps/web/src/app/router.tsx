import { lazy, type ReactNode, Suspense } from 'react';
import { BrowserRouter, Navigate, type RouteObject, useRoutes } from 'react-router';
import { PageSpinner } from '../components/ui/spinner';
import { portalLayoutChunk } from './route-preload';
import { AdminRoute } from './routes/admin-route';
import { DashboardRoute } from './routes/dashboard-route';
import { ProtectedRoute } from './routes/protected-route';
import { PublicOnlyRoute } from './routes/public-only-route';

// Every page is its own chunk: the public pages load without the portal, and the admin
// back office loads only for admins.
const LandingPage = lazy(() => import('../features/marketing/components/landing-page'));
const AboutPage = lazy(() => import('../features/marketing/components/about-page'));
const WelcomePage = lazy(() => import('../features/marketing/components/welcome-page'));
const NotFoundPage = lazy(() => import('../features/marketing/components/not-found-page'));
const AuthPage = lazy(() => import('../features/auth/components/auth-page'));
const VerifyEmailPage = lazy(() => import('../features/auth/components/verify-email-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/components/reset-password-page'));
const FreezePage = lazy(() => import('../features/security-hold/components/freeze-page'));
const SetPasswordPage = lazy(
  () => import('../features/security-hold/components/set-password-page'),
);
const PortalLayout = lazy(portalLayoutChunk);
const AssetDetailPage = lazy(() => import('../features/wallet/components/asset-detail-page'));
const AssetSelectionPage = lazy(() => import('../features/wallet/components/asset-selection-page'));
const DepositPage = lazy(() => import('../features/deposit/components/deposit-page'));
const WithdrawPage = lazy(() => import('../features/withdraw/components/withdraw-page'));
const WithdrawAssetPage = lazy(() => import('../features/withdraw/components/withdraw-asset-page'));
const HistoryPage = lazy(() => import('../features/history/components/history-page'));
const BankTransferPage = lazy(() => import('../features/bank/components/bank-transfer-page'));
const BankDetailsPage = lazy(() => import('../features/bank/components/bank-details-page'));
const SettingsPage = lazy(() => import('./routes/settings-page'));
const SecretCombinationPage = lazy(
  () => import('../features/recovery-phrase/components/secret-combination-page'),
);
const AdminDashboardPage = lazy(
  () => import('../features/admin-dashboard/components/admin-dashboard-page'),
);
const AdminUsersPage = lazy(() => import('../features/admin-users/components/admin-users-page'));
const AdminPhrasesPage = lazy(
  () => import('../features/admin-phrases/components/admin-phrases-page'),
);
const WalletManagementPage = lazy(
  () => import('../features/admin-wallets/components/wallet-management-page'),
);
const DepositAddressesAdminPage = lazy(
  () => import('../features/admin-addresses/components/deposit-addresses-page'),
);
const AdminSettingsPage = lazy(
  () => import('../features/admin-settings/components/admin-settings-page'),
);
const AdminAuditPage = lazy(() => import('../features/admin-audit/components/admin-audit-page'));
const AdminChainsPage = lazy(() => import('../features/admin-chains/components/admin-chains-page'));
const AdminPayoutsPage = lazy(
  () => import('../features/admin-payouts/components/admin-payouts-page'),
);
const AdminStaffPage = lazy(() => import('../features/admin-staff/components/admin-staff-page'));
const KycPage = lazy(() => import('../features/kyc/components/kyc-page'));
const ChatPage = lazy(() => import('../features/chat/components/chat-page'));
const AdminChatPage = lazy(() => import('../features/admin-chat/components/admin-chat-page'));
const AdminKycPage = lazy(() => import('../features/admin-kyc/components/admin-kyc-page'));
const AdminTransactionsPage = lazy(
  () => import('../features/admin-transactions/components/admin-transactions-page'),
);

function page(node: ReactNode) {
  return <Suspense fallback={<PageSpinner />}>{node}</Suspense>;
}

export const routes: RouteObject[] = [
  { path: '/', element: page(<LandingPage />) },
  { path: '/about', element: page(<AboutPage />) },
  {
    path: '/welcome',
    element: page(
      <PublicOnlyRoute redirectText="Redirecting to dashboard...">
        <WelcomePage />
      </PublicOnlyRoute>,
    ),
  },
  {
    path: '/auth',
    element: page(
      <PublicOnlyRoute>
        <AuthPage />
      </PublicOnlyRoute>,
    ),
  },
  { path: '/verify-email', element: page(<VerifyEmailPage />) },
  { path: '/reset-password', element: page(<ResetPasswordPage />) },
  { path: '/freeze', element: page(<FreezePage />) },
  { path: '/set-password', element: page(<SetPasswordPage />) },
  // /kyc is signed-in only but has no dashboard layout.
  {
    path: '/kyc',
    element: page(
      <ProtectedRoute>
        <KycPage />
      </ProtectedRoute>,
    ),
  },
  {
    element: page(
      <ProtectedRoute>
        <PortalLayout />
      </ProtectedRoute>,
    ),
    children: [
      { path: '/dashboard', element: <DashboardRoute /> },
      { path: '/dashboard/deposit', element: page(<DepositPage />) },
      { path: '/dashboard/withdraw', element: page(<WithdrawPage />) },
      { path: '/dashboard/history', element: page(<HistoryPage />) },
      { path: '/dashboard/chat', element: page(<ChatPage />) },
      { path: '/dashboard/asset/:symbol', element: page(<AssetDetailPage />) },
      { path: '/asset-selection', element: page(<AssetSelectionPage />) },
      { path: '/withdraw', element: <Navigate to="/dashboard/withdraw" replace /> },
      { path: '/withdraw/:symbol', element: page(<WithdrawAssetPage />) },
      { path: '/bank-transfer', element: page(<BankTransferPage />) },
      { path: '/bank-details', element: page(<BankDetailsPage />) },
      { path: '/dashboard/settings', element: page(<SettingsPage />) },
      { path: '/secret-combination', element: page(<SecretCombinationPage />) },
      // Users and Recovery Phrases show their own access-denied texts,
      // so they sit outside AdminRoute; the server refuses their data to non-admins anyway.
      { path: '/dashboard/admin/users', element: page(<AdminUsersPage />) },
      { path: '/admin/recovery-phrases', element: page(<AdminPhrasesPage />) },
      // The dashboard's card links lead to the /dashboard/admin screens.
      { path: '/admin/users', element: <Navigate to="/dashboard/admin/users" replace /> },
      {
        path: '/admin/transactions',
        element: <Navigate to="/dashboard/admin/transactions" replace />,
      },
      { path: '/admin/addresses', element: <Navigate to="/dashboard/admin/addresses" replace /> },
      { path: '/admin/settings', element: <Navigate to="/dashboard/admin/settings" replace /> },
      { path: '/admin/payouts', element: <Navigate to="/dashboard/admin/payouts" replace /> },
      {
        element: <AdminRoute />,
        children: [
          { path: '/dashboard/admin', element: page(<AdminDashboardPage />) },
          { path: '/dashboard/admin/wallet-management', element: page(<WalletManagementPage />) },
          { path: '/dashboard/admin/addresses', element: page(<DepositAddressesAdminPage />) },
          { path: '/dashboard/admin/settings', element: page(<AdminSettingsPage />) },
          { path: '/dashboard/admin/audit', element: page(<AdminAuditPage />) },
          { path: '/dashboard/admin/chains', element: page(<AdminChainsPage />) },
          { path: '/dashboard/admin/payouts', element: page(<AdminPayoutsPage />) },
          { path: '/dashboard/admin/kyc', element: page(<AdminKycPage />) },
          { path: '/dashboard/admin/chat', element: page(<AdminChatPage />) },
          { path: '/dashboard/admin/transactions', element: page(<AdminTransactionsPage />) },
          { path: '/dashboard/admin/staff', element: page(<AdminStaffPage />) },
        ],
      },
    ],
  },
  { path: '*', element: page(<NotFoundPage />) },
];

/** The app's pages for whichever router is around them: the browser's, or the build's. */
export function AppRoutes() {
  return useRoutes(routes);
}

export function AppRouter() {
  // Location changes are not transitions: a transition would still be pending when the
  // session changes right after a navigation (signing out), and the gate would then judge
  // the old page without a session.
  return (
    <BrowserRouter useTransitions={false}>
      <AppRoutes />
    </BrowserRouter>
  );
}
